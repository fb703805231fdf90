#!/usr/bin/env bash
# A real Spark standalone cluster on this machine: a master and two workers, each its own JVM from
# the Maven-resolved Spark jars (cli/target/spark-jars), bound to 127.0.0.1 on free ports; jobs
# submitted to it through `largecat spark ... --master spark://127.0.0.1:PORT` (the driver in the
# launcher's JVM, client mode); their results compared with local mode and with the single-machine
# command; times printed; the cluster stopped on any exit. The executors load the kernels' backends
# as one machine does (the session adds the Vector API module and native access to their JVM
# options), and each executor's log must show its backend line.
# Also checks that largecat.jar run without Spark's jars says how to run `largecat spark`.
# Usage: spark/cluster-test.sh [ROOT] (default: this repository; the launcher packages it first
# when the jar is stale); KEEP=1 keeps the daemons' and executors' logs in the printed directory.
set -euo pipefail
root="$(cd "${1:-$(dirname "$0")/..}" && pwd)"
launcher="$root/largecat"
jars="$root/cli/target/spark-jars"
# shellcheck source=bin/find-jdk.sh
source "$root/bin/find-jdk.sh"
JAVA_HOME="$(largecat_find_jdk)"
export JAVA_HOME
# shellcheck source=bin/jvm-options.sh
source "$root/bin/jvm-options.sh"
fail() {
  echo "cluster-test: $*" >&2
  exit 1
}
seconds() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }

# The first run of the launcher builds the jar and spark-jars when they are missing or stale.
"$launcher" --version >/dev/null
[ -f "$jars/java-options" ] || "$launcher" spark --help >/dev/null
largecat_spark_options "$jars/java-options"

# Without Spark's jars (a plain java -jar), the command says what is missing and how to run it.
status=0
"$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar "$root/cli/target/largecat.jar" \
  spark kernels >/dev/null 2>"${TMPDIR:-/tmp}/cluster-test.$$" || status=$?
message="$(grep -v '^WARNING' "${TMPDIR:-/tmp}/cluster-test.$$")"
rm -f "${TMPDIR:-/tmp}/cluster-test.$$"
[ "$status" = 2 ] && [[ "$message" == "largecat spark kernels: Spark is not on the class path"*"./largecat spark"* ]] \
  || fail "java -jar largecat.jar spark kernels: status $status, '$message'"

work="$(mktemp -d)"
[ -z "${KEEP:-}" ] || echo "cluster-test: logs in $work"
pids=()
stop() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap stop EXIT

# Spark's scripts find the jars under SPARK_HOME/jars of a release; the workers build their
# executors' class path from there.
home="$work/spark-home"
mkdir -p "$home/jars" "$home/conf"
ln -s "$jars"/*.jar "$home/jars/"
touch "$home/RELEASE"
export SPARK_HOME="$home" SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1 SPARK_LOCAL_HOSTNAME=127.0.0.1

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts a Spark daemon CLASS with ARGS in the background, logging to $work/NAME.log.
daemon() {
  local name="$1" class="$2"
  shift 2
  "$JAVA_HOME/bin/java" "${spark_options[@]}" -Xmx512m -cp "$home/conf:$home/jars/*" \
    "$class" "$@" >"$work/$name.log" 2>&1 &
  pids+=("$!")
}

# Waits up to 60 s for PATTERN in $work/NAME.log.
await() {
  local name="$1" pattern="$2" i
  for i in $(seq 600); do
    grep -q "$pattern" "$work/$name.log" && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || true
    sleep 0.1
  done
  fail "$name did not log '$pattern' within 60 s: $(tail -20 "$work/$name.log")"
}

start="$(seconds)"
master_port="$(free_port)"
master="spark://127.0.0.1:$master_port"
daemon master org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port "$master_port" --webui-port "$(free_port)"
await master "I have been elected leader"
for w in 1 2; do
  daemon "worker$w" org.apache.spark.deploy.worker.Worker \
    --host 127.0.0.1 --port "$(free_port)" --webui-port "$(free_port)" \
    --cores 1 --memory 1g --work-dir "$work/worker$w" "$master"
done
await worker1 "Successfully registered with master"
await worker2 "Successfully registered with master"
echo "cluster-test: master and two workers up at $master in $(since "$start") s"

# Every job: both workers' cores (one executor each) registered before the first task.
cluster=(--master "$master" --conf spark.cores.max=2
  --conf spark.scheduler.minRegisteredResourcesRatio=1.0
  --conf spark.scheduler.maxRegisteredResourcesWaitingTime=60s
  --conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1
  --conf spark.executor.memory=768m)

# The backend choice: of each executor on the cluster, of local mode, of the single-machine command.
start="$(seconds)"
"$launcher" spark kernels "${cluster[@]}" --partitions 8 >"$work/kernels.out" 2>"$work/kernels.err" \
  || fail "spark kernels on the cluster failed: $(cat "$work/kernels.err")"
cluster_seconds="$(since "$start")"
cat "$work/kernels.out"
start="$(seconds)"
"$launcher" spark kernels --master 'local[2]' >"$work/local.out" 2>"$work/local.err" \
  || fail "spark kernels in local mode failed: $(cat "$work/local.err")"
local_seconds="$(since "$start")"
single="$("$launcher" kernels 2>/dev/null \
  | awk '/^family/ { t = 1; next } t && NF == 3 { printf "%s%s=%s", s, $1, $3; s = ", " }')"
[ "$(grep -c '^executor [0-9]* on 127.0.0.1: ' "$work/kernels.out")" = 2 ] \
  || fail "expected a line from each of the two executors: $(cat "$work/kernels.out")"
[ "$(cut -d: -f2- "$work/kernels.out" | sort -u)" = " $single" ] \
  || fail "the executors chose otherwise than one machine ($single): $(cat "$work/kernels.out")"
[ "$(cut -d: -f2- "$work/local.out")" = " $single" ] \
  || fail "local mode chose otherwise than one machine ($single): $(cat "$work/local.out")"
logged="$(cat "$work"/worker*/app-*/*/stderr | grep -c 'largecat kernels on executor [0-9]*: ' || true)"
[ "$logged" = 2 ] || fail "expected each executor's log to show its backend line, found $logged"
grep -h 'largecat kernels on executor [0-9]*: ' "$work"/worker*/app-*/*/stderr | sed 's/^/  log: /'
echo "cluster-test: kernels: cluster $cluster_seconds s, local[2] $local_seconds s; both as one machine: $single"
