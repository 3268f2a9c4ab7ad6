#!/usr/bin/env bash
# What a running compose stack costs the host with no traffic (docs/benchmarks.md, "The compose stack at idle"):
# the host's busy share of all its cores, each service's share of one core and its log bytes, and for each JVM the
# threads that took the most, by name with their numbers folded. Runs on the Docker host, as root (it reads the
# containers' /proc), beside a running `docker compose up`; starts nothing and changes nothing.
#
#   idle-cost.sh [SECONDS]      measure over SECONDS (60)
set -euo pipefail

seconds="${1:-60}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "idle-cost: SECONDS must be a positive whole number, was '$seconds'" >&2; exit 2; }
[[ $EUID -eq 0 ]] || { echo "idle-cost: run as root: a container's threads are read from /proc/<pid>/task" >&2; exit 4; }
project="${COMPOSE_PROJECT_NAME:-c4i-gateway}"
hz="$(getconf CLK_TCK)"

host_jiffies() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }

# "<container> <thread name> <utime+stime>" for every thread of every process in every running container of the
# project (a PostgreSQL container is many processes); a process belongs to the container whose id its cgroup names.
thread_ticks() {
  local name id cgroup proc task
  for name in $(docker ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}}'); do
    id="$(docker inspect -f '{{.Id}}' "$name")"
    for cgroup in $(grep -l "$id" /proc/[0-9]*/cgroup 2>/dev/null); do
      proc="${cgroup%/cgroup}"
      for task in "$proc"/task/*; do
        # The name may hold spaces and parentheses: the fields after the last ')' are fixed.
        { read -r comm < "$task/comm" && read -r stat < "$task/stat"; } 2>/dev/null || continue
        # shellcheck disable=SC2086
        set -- ${stat##*) }
        printf '%s\t%s\t%s\n' "${name#"$project"-}" "$comm" "$((${12} + ${13}))"
      done
    done
  done
}

log_bytes() {
  local name
  for name in $(docker ps --filter "label=com.docker.compose.project=$project" --format '{{.Names}}'); do
    printf '%s\t%s\n' "${name#"$project"-}" "$(docker logs --since "${seconds}s" "$name" 2>&1 | wc -c)"
  done
}

# The snapshots stay outside the host's window, so their own work is not counted as the stack's; the threads' window
# is the time between them.
load="$(cut -d' ' -f1-3 /proc/loadavg)"
start=$EPOCHREALTIME
before="$(thread_ticks)"
read -r busy1 total1 < <(host_jiffies)
sleep "$seconds"
read -r busy2 total2 < <(host_jiffies)
after="$(thread_ticks)"
span="$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN{print b - a}')"

echo "host busy: $(awk -v b=$((busy2 - busy1)) -v t=$((total2 - total1)) 'BEGIN{printf "%.1f", 100*b/t}')% of" \
  "$(nproc) cores over ${seconds} s"
echo "load average at the start: $load"
# Thread numbers folded (Thread-3 and Thread-5 are one pool); a thread that began or ended between the snapshots
# counts from zero or not at all, a small error against a minute of ticks.
delta="$(awk -F'\t' '{gsub(/[0-9]+/, "N", $2)} NR==FNR{b[$1"\t"$2]+=$3; next} {a[$1"\t"$2]+=$3}
  END{for (k in a) print k "\t" a[k]-b[k]}' <(echo "$before") <(echo "$after"))"
echo "per container, share of one core over ${span%.*} s, and log bytes in the last ${seconds} s:"
join -t $'\t' <(awk -F'\t' '{c[$1]+=$3} END{for (k in c) print k "\t" c[k]}' <<< "$delta" | sort) \
  <(log_bytes | sort) | sort -t $'\t' -k2,2rn |
  awk -F'\t' -v hz="$hz" -v s="$span" '{printf "  %-28s %6.1f%%  %10d B\n", $1, 100*$2/hz/s, $3}'
echo "per container and thread name (over 0.2% of a core):"
sort -t $'\t' -k1,1 -k3,3rn <<< "$delta" |
  awk -F'\t' -v hz="$hz" -v s="$span" '{p=100*$3/hz/s; if (p > 0.2) printf "  %-28s %-18s %5.1f%%\n", $1, $2, p}'
