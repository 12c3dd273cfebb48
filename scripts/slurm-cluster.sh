#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `c960 slurm` and for
# its end-to-end test: a private munged, slurmctld and slurmd, all as the
# calling user (root in a container), with every file under one state
# directory that `stop` removes again. No systemd or cgroups needed.
#
#   scripts/slurm-cluster.sh start    # start (nothing to do when running)
#   scripts/slurm-cluster.sh status   # is it up? (exit 0 when it is)
#   scripts/slurm-cluster.sh env      # the line to paste into a shell
#   scripts/slurm-cluster.sh stop     # stop it and remove its files
#
# Slurm's commands find this cluster through SLURM_CONF: after `start`,
# run `eval "$(scripts/slurm-cluster.sh env)"`. Needs Debian's slurm-wlm
# and munge (apt-get install slurm-wlm munge). State directory:
# $C960_SLURM_DIR, default /tmp/c960-slurm.
set -euo pipefail

state="${C960_SLURM_DIR:-/tmp/c960-slurm}"
conf="$state/slurm.conf"
node="$(hostname -s)"

die() { echo "slurm-cluster: $*" >&2; exit 1; }

need() {
  local missing=()
  for tool in munged mungekey slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] || die "missing ${missing[*]}: install Debian's slurm-wlm and munge (apt-get install slurm-wlm munge)"
}

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

up() {
  alive "$state/munged.pid" && alive "$state/slurmctld.pid" && alive "$state/slurmd.pid" &&
    SLURM_CONF="$conf" sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated|completing)'
}

write_conf() {
  mkdir -p "$state/ctld" "$state/d" "$state/log"
  cat >"$conf" <<CONF
# Written by scripts/slurm-cluster.sh: one node with this machine's CPUs.
ClusterName=c960
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge.socket
SlurmctldPort=${C960_SLURM_PORT:-6817}
SlurmdPort=$(( ${C960_SLURM_PORT:-6817} + 1 ))
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
# Each task bound to its CPUs, as clusters run Slurm: unbound, two tasks'
# engines ran 10-22% slower than one process's (docs/cluster.md).
TaskPlugin=task/affinity
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=10
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
}

start() {
  need
  if up; then
    echo "slurm-cluster: already running ($conf)"
    return 0
  fi
  # Leftovers of a half-started or killed cluster go first.
  stop_daemons
  mkdir -p "$state"
  chmod 700 "$state"
  write_conf
  if [ ! -s "$state/munge.key" ]; then
    mungekey --create --keyfile="$state/munge.key" >/dev/null 2>&1 ||
      { dd if=/dev/urandom of="$state/munge.key" bs=1024 count=1 status=none; }
    chmod 600 "$state/munge.key"
  fi
  munged --force --key-file="$state/munge.key" --socket="$state/munge.socket" \
    --pid-file="$state/munged.pid" --log-file="$state/log/munged.log" \
    --seed-file="$state/munge.seed" ||
    die "munged did not start (see $state/log/munged.log)"
  export SLURM_CONF="$conf"
  slurmctld -c -f "$conf" || die "slurmctld did not start (see $state/log/slurmctld.log)"
  slurmd -f "$conf" -N "$node" || die "slurmd did not start (see $state/log/slurmd.log)"
  for _ in $(seq 1 60); do
    if up; then
      echo "slurm-cluster: running: one node ($node, $(nproc) CPUs), partition debug; $(env_line)"
      return 0
    fi
    sleep 0.5
  done
  die "the node did not come up (see $state/log)"
}

stop_daemons() {
  local pidfile pid
  for daemon in slurmd slurmctld munged; do
    pidfile="$state/$daemon.pid"
    if alive "$pidfile"; then
      pid="$(cat "$pidfile")"
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.25
      done
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}

stop() {
  if [ ! -d "$state" ]; then
    echo "slurm-cluster: not running"
    return 0
  fi
  stop_daemons
  rm -rf "$state"
  echo "slurm-cluster: stopped"
}

env_line() { echo "export SLURM_CONF=$conf"; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    if up; then
      echo "slurm-cluster: running ($conf)"
      SLURM_CONF="$conf" sinfo
    else
      echo "slurm-cluster: not running"
      exit 1
    fi
    ;;
  env) env_line ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
