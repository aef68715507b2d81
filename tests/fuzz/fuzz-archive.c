/*
 * A bot's uploaded archive (ladder/archive.h): unpacked under small caps
 * into a fresh private directory, which is checked to hold only plain
 * files and directories, then removed. The one directory outside
 * fuzz_file()'s file that a harness writes: made and removed per input.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "fuzz.h"
#include "ladder/archive.h"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	/* nothing but files and directories may have been made */
	if (flag != FTW_DP && !S_ISREG(st->st_mode))
		g_error("fuzz-archive: %s is neither a file nor a directory", path);
	if (S_ISREG(st->st_mode) && (st->st_mode & 07777) != 0644 && (st->st_mode & 07777) != 0755)
		g_error("fuzz-archive: %s has mode %o", path, st->st_mode & 07777);
	return remove(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	LadderBotCaps caps = {256 * 1024, 64};
	g_autofree char *dir = g_dir_make_tmp("tetrarena-fuzz-archive-XXXXXX", NULL);

	if (!dir)
		g_error("fuzz-archive: no temporary directory");
	ladder_archive_unpack(data, size, "fuzz.tar.gz", dir, &caps, NULL);
	if (nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		g_error("fuzz-archive: cannot remove %s", dir);
	return 0;
}
