#!/bin/bash
# fuzz/run_fuzz.sh BIN FIRST_SEED NSEEDS_PER_PROCESS NPROCESSES [WORK]
# Runs BIN (fuzz_life or fuzz_sync, built by fuzz/build.sh; WORK: their
# third argument, operations or rounds per seed) under each of the 8 threading
# techniques, with the shortcuts on and off; prints failing runs, and a
# count of runs per configuration.
bin=$1; first=$2; per=$3; nproc=$4; work=${5:-}
fails=0
for tech in full full-l roc roc-l ss ss-l sc auto; do
  for sc in on off; do
    if [ $sc = off ]; then
      envs="ABT_OPT_FAST_CREATE_FREE=0 ABT_OPT_JOIN_BYPASS=0 ABT_OPT_DIRECT_YIELD=0"
    else envs=""; fi
    ok=0
    for p in $(seq 0 $((nproc-1))); do
      seed=$((first + p * per))
      out=$(env $envs ABT_THREAD_TECHNIQUE=$tech FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-120} \
        timeout $(( ${FUZZ_TIMEOUT:-120} * per + 60 )) nice -n 19 $bin $seed $per $work 2>&1)
      rc=$?
      if [ $rc -ne 0 ]; then
        fails=$((fails+1))
        echo "FAIL tech=$tech shortcuts=$sc seeds=$seed..$((seed+per-1)) rc=$rc"
        echo "$out" | head -40
      else ok=$((ok+1)); fi
    done
    echo "tech=$tech shortcuts=$sc: $ok/$nproc processes ($per seeds each) passed"
  done
done
exit $((fails > 0))
