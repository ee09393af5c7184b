#!/bin/sh
# Records GNU gprof's output for every case and option set (see gen.sh),
# or for the cases named: sh expect.sh [case...].  A case's file `env'
# (VAR=value ...) is GNU's environment where GNU reads memory it does not
# own: the output GNU gives when that memory reads as zero.
cd "$(dirname "$0")"
if [ $# -gt 0 ]; then dirs=$(for c in "$@"; do echo cases/$c/; done); else dirs=$(echo cases/*/); fi
for d in $dirs; do
  d=${d%/}; rm -rf $d/expected; mkdir -p $d/expected
  while IFS= read -r o; do
    # recorded under the option string (run.sh's optkey): "-b -q" -> -b,-q.out
    k=$(printf '%s' "$o" | sed 's/ /,/g; s|/|%|g')
    (cd $d && env $(cat env 2> /dev/null) PATH=/usr/bin:$PATH gprof $o bin $(cat files) > expected/$k.out 2> expected/$k.err; echo $? > expected/$k.rc)
  done < $(if [ -f $d/optsets ]; then echo $d/optsets; else echo optsets; fi)
done
