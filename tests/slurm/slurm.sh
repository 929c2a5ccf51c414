# shellcheck shell=bash
# tests/slurm/slurm.sh: a one-node Slurm in a folder of its own, for
# tests/slurm/run.sh (sourced). Nothing outside the folder is used or
# changed: munged, slurmctld and slurmd run from there with their own key,
# socket, ports, state and logs (SLURM_CONF names its slurm.conf), so a
# Slurm the machine already runs is left alone. No systemd, no cgroups:
# processes are tracked by their parents (proctrack/linuxproc), tasks are
# not bound to CPUs (task/none), and there is no accounting.
#
#   slurm_start DIR   starts it, returns 1 after saying why when it cannot
#   slurm_stop        cancels what is left of the jobs, stops the daemons
#                     by the PIDs they wrote (call it from a trap)

# The first port from $1 on that no socket of this machine listens on or
# uses, and the next one too (slurmctld, slurmd).
slurm_free_ports() {
    local p=$1 used
    used=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk 'NR > 1 { split($2, a, ":"); print a[2] }')
    while echo "$used" | grep -qix "$(printf '%04x' "$p")\|$(printf '%04x' $((p + 1)))"; do
        p=$((p + 2))
    done
    echo "$p"
}

slurm_start() {
    SLURM_DIR=$1
    local d=$1 who port
    who=$(id -un)
    # munged refuses a socket in a folder others cannot enter, and a key
    # others can read
    mkdir -p "$d/state" "$d/spool" && chmod 755 "$d" || return 1
    head -c 1024 /dev/urandom >"$d/munge.key" && chmod 600 "$d/munge.key" || return 1
    if ! munged --socket="$d/munge.socket" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
        --log-file="$d/munged.log" --seed-file="$d/munged.seed" 2>"$d/munged.err"; then
        echo "munged does not start: $(cat "$d/munged.err")"
        return 1
    fi
    port=$(slurm_free_ports $((20000 + $$ % 20000)))
    # one node of 4 CPUs whatever the machine has (config_overrides): with
    # task/none nothing is bound, so the recipe's 2 CPUs a task run anywhere
    cat >"$d/slurm.conf" <<EOF
ClusterName=tttest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$who
SlurmdUser=$who
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
MailProg=/bin/true
KillWait=5
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
NodeName=localhost CPUs=32 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$d/slurm.conf"
    if ! slurmctld 2>"$d/slurmctld.err" || ! slurmd -N localhost 2>"$d/slurmd.err"; then
        echo "slurmctld or slurmd does not start: $(cat "$d"/slurm*.err)"
        return 1
    fi
    local state=""
    for _ in $(seq 100); do
        state=$(sinfo -h -n localhost -o %T 2>/dev/null)
        [ "$state" = idle ] && return 0
        sleep 0.1
    done
    echo "the node is not idle after 10 s (sinfo: '$state'); slurmctld.log ends:"
    tail -5 "$d/slurmctld.log" "$d/slurmd.log" 2>/dev/null
    return 1
}

slurm_stop() {
    [ -n "${SLURM_DIR:-}" ] || return 0
    local d=$SLURM_DIR f pid pids=""
    if [ -e "$d/slurmctld.pid" ]; then
        scancel -p test 2>/dev/null
        for _ in $(seq 50); do
            [ -z "$(squeue -h -p test 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    for f in slurmd slurmctld munged; do
        pid=$(cat "$d/$f.pid" 2>/dev/null) && kill "$pid" 2>/dev/null && pids="$pids $pid"
    done
    for _ in $(seq 50); do
        for pid in $pids; do
            kill -0 "$pid" 2>/dev/null && break
            pid=""
        done
        [ -z "$pid" ] && break
        sleep 0.1
    done
    for pid in $pids; do
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    done
    SLURM_DIR=""
}
