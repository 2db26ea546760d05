#!/bin/bash
# Runs fuzz_sched (built by fuzz/build.sh) over seeds × techniques (× shortcuts on/off).
#   fuzz/run_fuzz_sched.sh BINARY FIRST_SEED LAST_SEED [TECHNIQUES...]
# Each seed is its own process (timeout 60 s); failing seeds are listed in
# $FZ_LOG (default /tmp/fuzz_sched_fail.log) with their first lines of output.
bin=$1; a=$2; b=$3; shift 3
techs=${*:-full full-l roc roc-l ss ss-l sc auto}
log=${FZ_LOG:-/tmp/fuzz_sched_fail.log}
n=0; f=0
for s in $(seq $a $b); do
  for t in $techs; do
    for sc in 1 0; do
      if [ $sc = 0 ]; then env="ABT_OPT_FAST_CREATE_FREE=0 ABT_OPT_JOIN_BYPASS=0 ABT_OPT_DIRECT_YIELD=0"; else env=""; fi
      out=$(env ABT_THREAD_TECHNIQUE=$t $env timeout 60 nice -n 19 $bin $s 2>&1); rc=$?
      n=$((n+1))
      if [ $rc != 0 ]; then
        f=$((f+1)); echo "seed=$s tech=$t shortcuts=$sc rc=$rc" | tee -a $log
        echo "$out" | grep -v "^ " | head -8 | tee -a $log
      fi
    done
  done
done
echo "runs=$n failures=$f"
