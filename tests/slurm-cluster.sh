# tests/slurm-cluster.sh: a one-node Slurm cluster for a test (sourced after
# tap.sh; POSIX sh). slurm_start brings up munged (as user munge), slurmctld
# and slurmd with everything under $tmp/slurm, in the network namespace the
# test runs in (t3013 runs in one of its own: loopback only), and exports
# SLURM_CONF; slurm_stop stops them by pid. slurm_can_start skips the whole
# test (skip_all, tap.sh) where a cluster cannot start: not root, packages
# missing. A daemon that then fails to start is a "Bail out!" with why.
slurm_bail() { echo "Bail out! Slurm cannot start here: $1"; slurm_stop; exit 1; }

slurm_can_start() {
	[ "$(id -u)" = 0 ] || skip_all "the test Slurm cluster needs root (uid $(id -u))"
	for p in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged sbatch squeue sinfo; do
		command -v "$p" >/dev/null 2>&1 ||
			skip_all "$p is missing (Debian slurmctld, slurmd, slurm-client, munge: make deps)"
	done
	id munge >/dev/null 2>&1 || skip_all "no user munge (Debian munge)"
}

slurm_start() {
	slurm_can_start
	sd=$tmp/slurm
	mkdir -p "$sd/munge" "$sd/state" "$sd/spool" "$sd/log"
	chmod 711 "$tmp" "$sd"
	dd if=/dev/urandom of="$sd/munge/munge.key" bs=1024 count=1 2>/dev/null
	chown -R munge:munge "$sd/munge"
	chmod 700 "$sd/munge"
	chmod 400 "$sd/munge/munge.key"
	setpriv --reuid munge --regid munge --clear-groups /usr/sbin/munged --foreground --force \
		--key-file="$sd/munge/munge.key" --socket="$sd/munge/munge.sock" \
		--pid-file="$sd/munge/munged.pid" --log-file="$sd/munge/munged.log" \
		--seed-file="$sd/munge/munged.seed" 2>"$sd/log/munged.err" &
	munged_pid=$!
	# At least 3 CPUs (config_overrides lets the node claim them): t3013's
	# three shards run at once instead of two and then the third.
	cpus=$(nproc)
	[ "$cpus" -ge 3 ] || cpus=3
	mem=$(awk '/^MemTotal/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
	port=$((20000 + $$ % 20000))
	: >"$sd/plugstack.conf"
	cat >"$sd/slurm.conf" <<EOC
ClusterName=tetrarena
SlurmctldHost=localhost(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$sd/munge/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
PlugStackConfig=$sd/plugstack.conf
SchedulerType=sched/backfill
# No waiting: jobs are scheduled as they are submitted and as others end
# (by default a batch job waits up to 3 s for the next scheduling pass).
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation=$sd/state
SlurmdSpoolDir=$sd/spool
SlurmctldPidFile=$sd/slurmctld.pid
SlurmdPidFile=$sd/slurmd.pid
SlurmctldLogFile=$sd/log/slurmctld.log
SlurmdLogFile=$sd/log/slurmd.log
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOC
	export SLURM_CONF="$sd/slurm.conf"
	i=0
	while [ ! -S "$sd/munge/munge.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -S "$sd/munge/munge.sock" ] || slurm_bail "munged did not start: $(cat "$sd/log/munged.err" "$sd/munge/munged.log" 2>/dev/null | tail -3)"
	/usr/sbin/slurmctld -D -i -f "$SLURM_CONF" >"$sd/log/slurmctld.out" 2>&1 &
	slurmctld_pid=$!
	/usr/sbin/slurmd -D -N localhost -f "$SLURM_CONF" >"$sd/log/slurmd.out" 2>&1 &
	slurmd_pid=$!
	i=0
	until sinfo -h -o '%T' 2>/dev/null | grep -qx idle; do
		sleep 0.2
		i=$((i + 1))
		kill -0 $slurmctld_pid 2>/dev/null || slurm_bail "slurmctld died: $(tail -3 "$sd/log/slurmctld.log" "$sd/log/slurmctld.out" 2>/dev/null)"
		kill -0 $slurmd_pid 2>/dev/null || slurm_bail "slurmd died: $(tail -3 "$sd/log/slurmd.log" "$sd/log/slurmd.out" 2>/dev/null)"
		[ $i -lt 150 ] || slurm_bail "the node never came up: $(sinfo 2>&1 | tail -2; tail -3 "$sd/log/slurmctld.log")"
	done
}

slurm_stop() {
	for p in $slurmd_pid $slurmctld_pid $munged_pid; do
		kill "$p" 2>/dev/null
	done
	for p in $slurmd_pid $slurmctld_pid $munged_pid; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null
	done
	slurmd_pid= slurmctld_pid= munged_pid=
}
