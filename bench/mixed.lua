-- bench/mixed.lua: a mixed Lua workload of another shape than tvd.lua
-- (issue 34: small hot functions over-credited): binary trees, sorting
-- with a Lua comparator, string formatting and pattern matching,
-- coroutines, and string-keyed tables (many short strings made and
-- interned).  Scale with arg[1] (default 1).
local scale = tonumber(arg and arg[1]) or 1

local function bottom_up(d)
  if d == 0 then return {} end
  d = d - 1
  return { bottom_up(d), bottom_up(d) }
end
local function check(t)
  if t[1] then return 1 + check(t[1]) + check(t[2]) end
  return 1
end
local function trees(depth)
  local s = 0
  for d = 4, depth, 2 do
    for _ = 1, 2 ^ (depth - d + 2) do s = s + check(bottom_up(d)) end
  end
  return s
end

local seed = 42
local function rnd(n)
  seed = (seed * 16807) % 2147483647
  return seed % n
end
local function sorting(n)
  local t = {}
  for i = 1, n do t[i] = { key = rnd(100000), name = "n" .. rnd(1000) } end
  table.sort(t, function(a, b)
    if a.key ~= b.key then return a.key < b.key end
    return a.name < b.name
  end)
  return t[1].key + t[n].key
end

local function strings(n)
  local c = 0
  for i = 1, n do
    local s = string.format("%s-%d-%05.2f-%x", "item", i, i / 7, i * 31)
    local a, b = s:match("^(%a+)%-(%d+)")
    c = c + #a + tonumber(b) % 10
    s = s:gsub("%d", "#")
    if s:find("item", 1, true) then c = c + 1 end
  end
  return c
end

local function coros(n)
  local gen = coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i, "v" .. (i % 50)) end
  end)
  local s = 0
  for _ = 1, n do
    local i, v = gen()
    s = s + i + #v
  end
  return s
end

local function keyed(n)
  local t = {}
  for i = 1, n do
    local k = "key" .. (i % 5000)
    t[k] = (t[k] or 0) + i
    local f = "f" .. (i % 37)
    t[f] = (t[f] or 0) + 1
  end
  local s = 0
  for k, v in pairs(t) do s = s + #k + v % 3 end
  return s
end

local total = 0
for _ = 1, scale do
  total = total + trees(14)
  total = total + sorting(60000)
  total = total + strings(60000)
  total = total + coros(100000)
  total = total + keyed(300000)
end
print(total)
