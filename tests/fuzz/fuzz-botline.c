/* The referee's reader of bot output lines (bot_read, bot_next_line). */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "fuzz.h"
#include "referee/bot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = open(fuzz_file(data, size), O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	g_autoptr(Bot) bot = bot_new_reader(fd);
	for (;;) {
		BotReadStatus r = bot_read(bot);
		const char *line;
		BotLineStatus l;
		while ((l = bot_next_line(bot, &line)) != BOT_LINE_NONE)
			if (l == BOT_LINE_OK && strlen(line) > BOT_LINE_MAX)
				__builtin_trap();
		if (r == BOT_READ_EOF)
			break;
	}
	return 0;
}
