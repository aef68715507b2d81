/* Tests for engine/rng: golden values pin the algorithm forever. */
#include <glib.h>

#include "rng.h"

static void test_splitmix_reference(void)
{
	/* splitmix64 from 0 starts 0xe220a8397b1dcdaf (the published
	 * reference sequence), so seeding matches the documented algorithm. */
	Rng r;

	rng_seed(&r, 0);
	g_assert_cmphex(r.s[0], ==, 0xe220a8397b1dcdafull);
	g_assert_cmphex(r.s[1], ==, 0x6e789e6aa1b965f4ull);
}

static void test_golden(void)
{
	/* The first outputs for fixed seeds. If these change, every recorded
	 * game changes: do not "fix" this test, fix the generator. */
	static const struct {
		uint64_t seed;
		uint64_t first[3];
	} golden[] = {
		{1, {0xb3f2af6d0fc710c5ull, 0x853b559647364ceaull, 0x92f89756082a4514ull}},
		{42, {0x15780b2e0c2ec716ull, 0x6104d9866d113a7eull, 0xae17533239e499a1ull}},
	};

	for (gsize i = 0; i < G_N_ELEMENTS(golden); i++) {
		Rng r;
		rng_seed(&r, golden[i].seed);
		for (int k = 0; k < 3; k++)
			g_assert_cmphex(rng_next(&r), ==, golden[i].first[k]);
	}
}

static void test_dice_golden(void)
{
	Rng r;
	char got[21];

	rng_seed(&r, 7);
	for (int i = 0; i < 20; i++)
		got[i] = (char)('0' + rng_die(&r, 6));
	got[20] = '\0';
	g_assert_cmpstr(got, ==, "52666611314566342311");
}

static void test_below_uniform(void)
{
	/* Chi-square over 6 faces, 60000 rolls: 5 degrees of freedom, the
	 * 0.999 quantile is 20.5, so a correct generator fails 1 in 1000
	 * seeds; seed 3 is fixed, so this is deterministic. */
	Rng r;
	int count[6] = {0};

	rng_seed(&r, 3);
	for (int i = 0; i < 60000; i++)
		count[rng_below(&r, 6)]++;
	double chi = 0;
	for (int f = 0; f < 6; f++)
		chi += (count[f] - 10000.0) * (count[f] - 10000.0) / 10000.0;
	g_assert_cmpfloat(chi, <, 20.5);
	for (int i = 0; i < 1000; i++)
		g_assert_cmpuint(rng_below(&r, 1), ==, 0);
}

static void test_shuffle_permutes(void)
{
	Rng r;
	int a[7] = {0, 1, 2, 3, 4, 5, 6};
	int seen = 0;

	rng_seed(&r, 99);
	rng_shuffle(&r, a, 7);
	for (int i = 0; i < 7; i++)
		seen |= 1 << a[i];
	g_assert_cmpint(seen, ==, 0x7f);
}

static void test_derive(void)
{
	g_assert_cmphex(rng_derive(1, "game", 0), ==, rng_derive(1, "game", 0));
	g_assert_cmphex(rng_derive(1, "game", 0), !=, rng_derive(1, "game", 1));
	g_assert_cmphex(rng_derive(1, "game", 0), !=, rng_derive(1, "fault", 0));
	g_assert_cmphex(rng_derive(1, "game", 0), !=, rng_derive(2, "game", 0));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rng/splitmix/reference", test_splitmix_reference);
	g_test_add_func("/rng/golden", test_golden);
	g_test_add_func("/rng/dice/golden", test_dice_golden);
	g_test_add_func("/rng/below/uniform", test_below_uniform);
	g_test_add_func("/rng/shuffle", test_shuffle_permutes);
	g_test_add_func("/rng/derive", test_derive);
	return g_test_run();
}
