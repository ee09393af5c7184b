CREATE TABLE t(id INTEGER PRIMARY KEY, a INT, b TEXT, c REAL, d TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < 300000)
INSERT INTO t(a, b, c, d) SELECT abs(random()) % 1000, printf('name-%08d-%s', i, hex(randomblob(4))), random() / 1e12,
  json_object('k', i, 'v', i % 17, 'tags', json_array('x', 'y', i % 5)) FROM n;
CREATE INDEX t_a ON t(a);
CREATE INDEX t_b ON t(substr(b, 6, 4));
SELECT a, count(*), avg(c), max(length(b)) FROM t GROUP BY a ORDER BY 2 DESC LIMIT 3;
SELECT count(*) FROM t x JOIN t y ON x.a = y.a AND x.id < y.id AND y.id - x.id < 50;
SELECT sum(json_extract(d, '$.v')), count(DISTINCT json_extract(d, '$.tags[2]')) FROM t;
SELECT upper(b), lower(b), replace(b, 'name', 'N'), instr(b, '-') FROM t WHERE a < 5 ORDER BY b DESC LIMIT 2;
CREATE VIRTUAL TABLE f USING fts5(body);
INSERT INTO f SELECT b || ' ' || d || ' lorem ipsum dolor sit amet ' || (a * 7) FROM t WHERE id % 3 = 0;
SELECT count(*) FROM f WHERE f MATCH 'lorem AND dolor NOT amet7';
SELECT count(*) FROM f WHERE f MATCH 'name*';
CREATE VIRTUAL TABLE r USING rtree(id, x0, x1, y0, y1);
INSERT INTO r SELECT id, a, a + 10, c, c + 1 FROM t WHERE id % 4 = 0;
SELECT count(*) FROM r WHERE x0 > 100 AND x1 < 300;
SELECT a, group_concat(id, ',') FROM (SELECT * FROM t WHERE a BETWEEN 10 AND 12 ORDER BY c) GROUP BY a;
SELECT a, row_number() OVER (PARTITION BY a ORDER BY c), sum(c) OVER (ORDER BY id ROWS 5 PRECEDING) FROM t WHERE a < 3 LIMIT 2;
UPDATE t SET c = c * 2 WHERE a % 7 = 0;
DELETE FROM t WHERE a % 11 = 0;
SELECT sqrt(sum(c * c)), ln(count(*)) FROM t;
