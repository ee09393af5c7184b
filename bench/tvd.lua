-- bench/tvd.sh's Lua benchmark: a mixed interpreter workload: table inserts, lookups and sorting,
-- string building, formatting and pattern matching, closures and method
-- calls.  Scale with arg[1] (default 1).
local scale = tonumber(arg and arg[1]) or 1
local seed = 12345
local function rand(n)            -- a small LCG helper, called very often
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point:add(o) return Point.new(self.x + o.x, self.y + o.y) end
function Point:len2() return self.x * self.x + self.y * self.y end

local function tables(n)
  local t, h = {}, {}
  for i = 1, n do t[i] = rand(1000) end
  for i = 1, n do local k = "k" .. (t[i] % 97); h[k] = (h[k] or 0) + 1 end
  table.sort(t)
  local s = 0
  for i = 1, #t, 3 do s = s + t[i] end
  for k, v in pairs(h) do s = s + v + #k end
  local q = {}
  for i = 1, n // 4 do table.insert(q, i) end
  while #q > 0 do s = s + table.remove(q) end
  return s
end

local function strings(n)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = string.format("%d:%s", i, string.rep("x", i % 7)) end
  local s = table.concat(parts, ",")
  local c = 0
  for w in s:gmatch("(%d+):x+") do c = c + #w end
  s = s:gsub("xx", "y"):upper()
  return c + #s + (s:find("Y,", 1, true) or 0)
end

local function calls(n)
  local acc = Point.new(0, 0)
  local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
  local s = 0
  for i = 1, n do
    acc = acc:add(Point.new(rand(10), -rand(10)))
    s = s + acc:len2() % 7
  end
  return s + fib(20)
end

local total = 0
for r = 1, 60 * scale do
  total = total + tables(20000) + strings(8000) + calls(20000)
end
print(total)
