#!/usr/bin/perl
# A random bot in Perl, for tests/t2020-jail-filter.sh: it forks a child
# at `game` and reads one line from it through a pipe, then plays the
# listed moves in a fixed pseudo-random order.
use strict;
use warnings;
$| = 1;
my @moves;
my $n = 0;
while (my $line = <STDIN>) {
	my @w = split ' ', $line;
	next unless @w;
	if ($w[0] eq 'game') {
		print "hello jailbot-perl 1 moves\n";
		pipe(my $r, my $w) or die "pipe: $!";
		my $pid = fork // die "fork: $!";
		if (!$pid) { close $r; print $w "ok\n"; exit 0; }
		close $w;
		my $got = <$r>;
		waitpid $pid, 0;
		print "info fork ", ($got // "none\n");
	} elsif ($w[0] eq 'moves') {
		@moves = @w[1 .. $#w];
	} elsif ($w[0] eq 'go') {
		$n++;
		print "move $moves[($n * 7919) % @moves]\n";
	} elsif ($w[0] eq 'quit') {
		last;
	}
}
