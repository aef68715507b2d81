/*
 * referee: the `referee` command. Placeholder while game.c lands.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "referee: not yet\n");
	return 2;
}
