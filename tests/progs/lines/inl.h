static inline unsigned long mix(unsigned long x)
{
  x ^= x >> 13;
  x *= 0x9e3779b97f4a7c15ul;
  return x ^ (x >> 29);
}
