/* botio, the C bots' session: its line reader, `game` lines and state
 * lines of every variant, played by the random bot. */
#include <stdbool.h>
#include <stdio.h>

#include "fuzz.h"
#include "botio.h"
#include "randombot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static RandomBot bot;
	static bool ready;

	if (!ready)
		ready = randombot_init(&bot);
	BotioSpec spec = {
		.name = "fuzz",
		.version = "1",
		.about = "the botio fuzz harness",
		.choose = randombot_choose,
		.ctx = &bot,
	};
	FILE *in = fmemopen((void *)data, size, "r");
	FILE *out = fopen("/dev/null", "w");
	if (in && out)
		botio_run(&spec, in, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return 0;
}
