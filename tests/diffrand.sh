#!/bin/sh
# Differential test against GNU gprof (when installed): random call graphs
# with cycles and histograms (tests/tools/randprof.py) from ten to twenty
# thousand functions, every option set of the list below on the small and
# middle sizes, the main ones on the large.  Prints "ok ..." or "FAIL ..."
# per comparison (run.sh counts them).  DIFFRAND_SEEDS adds seeds.
# Usage: diffrand.sh OURS GNU WORKDIR
ours=$1 gnu=$2 w=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$w"
sets_all='-b
-b -p
-b -q
-b -z
-b -T
-b -z -T
-b -p -z
-b -q -z
-b -C
-b -r
-b -ns1 -ns3 -ns10
-b -Ns0 -Ns2
-b -es2 -Es5
-b -fs1 -Fs3
-b -ks1/s2 -ks3/s4
-b -q -m2
-b -p -I -x'
sets_big='-b
-b -z -T'
run() {   # n m seed sets
  n=$1 m=$2 s=$3 sets=$4
  d=$w/n$n; mkdir -p $d
  python3 "$here/tools/randprof.py" $n $m $s $d || { echo "FAIL diffrand: generator $n $m $s"; return; }
  echo "$sets" | while IFS= read -r o; do
    (cd $d && $gnu $o bin gmon.out > gnu.out 2> gnu.err; echo $? > gnu.rc
     $ours $o bin gmon.out > ours.out 2> ours.err; echo $? > ours.rc)
    if cmp -s $d/gnu.out $d/ours.out && cmp -s $d/gnu.err $d/ours.err && cmp -s $d/gnu.rc $d/ours.rc; then
      echo "ok diffrand $n/$m seed $s [$o]"
    else
      cp $d/gmon.out $d/gmon.fail.$s
      echo "FAIL diffrand $n/$m seed $s [$o] ($w/n$n: gmon.fail.$s, gnu.out, ours.out)"
    fi
  done
}
for s in 1 2 $DIFFRAND_SEEDS; do
  for nm in "10 30" "30 100" "100 400" "300 1500" "1000 5000" "3000 12000"; do
    set -- $nm
    run $1 $2 $s "$sets_all"
  done
done
for s in 1 $DIFFRAND_SEEDS; do
  run 10000 30000 $s "$sets_big"
  run 20000 50000 $s "$sets_big"
done
