# work.awk -- a gawk workload for bench/tvd.sh (TVD_PROGS=gawk): word
# counts in an associative array, string building and splitting, regular
# expression matching and substitution, arithmetic, asort; ARGV[1] rounds.
BEGIN {
  n = ARGV[1] + 0
  if (n < 1) n = 1
  for (r = 0; r < n; r++) {
    for (i = 0; i < 150000; i++) { w = "w" (i * 7919 % 5003); cnt[w]++ }
    s = ""
    for (i = 0; i < 4000; i++) s = s sprintf("%d,", i % 97)
    m = split(s, parts, ","); t = 0
    for (i = 1; i <= m; i++) t += parts[i]
    for (i = 0; i < 40000; i++) {
      x = "key" i "=value" (i % 13)
      if (match(x, /=[a-z]+[0-9]+$/)) y = substr(x, RSTART + 1)
      gsub(/[0-9]/, "#", x)
      u = toupper(x) length(x)
    }
    for (i = 0; i < 200000; i++) z += (i % 7) * (i % 5) / 3
    k = 0
    for (w in cnt) vals[++k] = cnt[w]
    asort(vals)
    delete cnt; delete vals
  }
  print t, z, y, k, u
}
