int fa(int x) { return x * 2; }
