#!/bin/sh
# Records GNU gprof's output for every case and option set (see gen.sh).
cd "$(dirname "$0")"
for d in cases/*/; do
  d=${d%/}; rm -rf $d/expected; mkdir -p $d/expected
  k=0
  while IFS= read -r o; do
    k=$((k + 1))
    (cd $d && PATH=/usr/bin:$PATH gprof $o bin $(cat files) > expected/$k.out 2> expected/$k.err; echo $? > expected/$k.rc)
  done < $(if [ -f $d/optsets ]; then echo $d/optsets; else echo optsets; fi)
done
