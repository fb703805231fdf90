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

# Runs the launcher with ARGS, its output to $work/NAME.out, and prints its seconds.
timed() {
  local name="$1" start
  shift
  start="$(seconds)"
  "$launcher" "$@" >"$work/$name.out" 2>"$work/$name.err" \
    || fail "$name failed: largecat $*: $(grep -v '^WARN' "$work/$name.err" | tail -20)"
  since "$start"
}

# The backend choice: of each executor on the cluster, and of the single-machine command.
t_kernels="$(timed kernels spark kernels "${cluster[@]}" --partitions 8)"
cat "$work/kernels.out"
single="$("$launcher" kernels 2>/dev/null \
  | awk '/^family/ { t = 1; next } t && NF == 3 { printf "%s%s=%s", s, $1, $3; s = ", " }')"
[ "$(grep -c '^executor [0-9]* on 127.0.0.1: ' "$work/kernels.out")" = 2 ] \
  || fail "expected a line from each of the two executors: $(cat "$work/kernels.out")"
[ "$(cut -d: -f2- "$work/kernels.out" | sort -u)" = " $single" ] \
  || fail "the executors chose otherwise than one machine ($single): $(cat "$work/kernels.out")"
logged="$(cat "$work"/worker*/app-*/*/stderr | grep -c 'largecat kernels on executor [0-9]*: ' || true)"
[ "$logged" = 2 ] || fail "expected each executor's log to show its backend line, found $logged"
grep -h 'largecat kernels on executor [0-9]*: ' "$work"/worker*/app-*/*/stderr | sed 's/^/  log: /'
echo "cluster-test: kernels on the cluster in $t_kernels s; as on one machine: $single"

# IB-CAVI probit on generated CB data: the ELBO per iteration and the BMA weight of the cluster,
# of local mode and of the single-machine command agree (to 1e-9 relative: only the order of the
# sums differs).
"$launcher" data synth cb --classes 4 --covariates 5 --rows 4000 --sigma-high 2 --seed 4 \
  --out "$work/train.txt" --test-out "$work/test.txt" >/dev/null 2>&1
fit=(--train "$work/train.txt" --link probit --iterations 40 --seed 3)
t_cavi_single="$(timed cavi-single cavi "${fit[@]}" --threads 2)"
t_cavi_local="$(timed cavi-local spark cavi "${fit[@]}" --master 'local[2]' --partitions 4)"
t_cavi_cluster="$(timed cavi-cluster spark cavi "${fit[@]}" "${cluster[@]}" --partitions 4)"
# ELBO rows: "iteration ELBO ELBO/(NK) [seconds]"; then the BMA line.
elbo() { awk '$1 ~ /^[0-9]+$/ && NF >= 3 { print $2 }' "$work/$1.out"; }
bma() { sed -n 's/^BMA weight on CBC: \([^ ]*\) .*/\1/p' "$work/$1.out"; }
for run in cavi-local cavi-cluster; do
  paste <(elbo cavi-single) <(elbo "$run") | awk -v run="$run" '
    { n++; d = $1 - $2; if (d < 0) d = -d; a = $1 < 0 ? -$1 : $1
      if (NF != 2 || d > 1e-9 * a + 1e-10) { print run ": ELBO " n - 1 ": " $1 " against " $2; bad = 1 } }
    END { if (n < 2) { print run ": no ELBO trace"; bad = 1 } exit bad }' \
    || fail "$run's ELBO trace differs from the single machine's"
  [ "$(bma "$run")" = "$(bma cavi-single)" ] \
    || fail "$run's BMA weight $(bma "$run") differs from the single machine's $(bma cavi-single)"
done
echo "cluster-test: cavi probit, $(elbo cavi-single | wc -l) ELBO values and BMA weight $(bma cavi-single)" \
  "equal on the cluster, local[2] and one machine; seconds: cluster $t_cavi_cluster," \
  "local[2] $t_cavi_local, single machine $t_cavi_single"

# A&R softmax: the cluster's run equals local mode's (same seed, same partitioning), and its saved
# model scores the same in largecat evaluate and spark evaluate; the single-machine trainer's test
# log-likelihood after the same epochs is printed beside it (the data-parallel rounds take other
# steps than one machine, so the two agree only as far as DistributedTrainerTest shows).
train=(--train "$work/train.txt" --test "$work/test.txt" --method ar-softmax --epochs 5 --batch 20
  --seed 5)
t_train_local="$(timed train-local spark train "${train[@]}" --rounds 4 --master 'local[2]' \
  --partitions 2 --model "$work/local.bin")"
t_train_cluster="$(timed train-cluster spark train "${train[@]}" --rounds 4 "${cluster[@]}" \
  --partitions 2 --model "$work/cluster.bin")"
t_train_single="$(timed train-single train "${train[@]}" --threads 2)"
timed evaluate-single evaluate --model "$work/cluster.bin" --test "$work/test.txt" >/dev/null
timed evaluate-cluster spark evaluate --model "$work/cluster.bin" --test "$work/test.txt" \
  "${cluster[@]}" >/dev/null
cmp -s "$work/local.bin" "$work/cluster.bin" \
  || fail "the cluster's model differs from local mode's: $(cat "$work/train-cluster.out")" \
    "against $(cat "$work/train-local.out")"
cmp -s "$work/evaluate-single.out" "$work/evaluate-cluster.out" \
  || fail "spark evaluate on the cluster: $(cat "$work/evaluate-cluster.out"), evaluate:" \
    "$(cat "$work/evaluate-single.out")"
loglik() { sed -n 's/^test: log-likelihood \([^ ]*\) .*/\1/p' "$work/$1.out"; }
echo "cluster-test: ar-softmax 5 epochs, test log-likelihood $(loglik train-cluster) on the cluster" \
  "(= local[2], model bit-identical; = largecat evaluate of its model), $(loglik train-single) on" \
  "one machine; seconds: cluster $t_train_cluster, local[2] $t_train_local, single machine" \
  "$t_train_single"
