int fc(int x) { return x * 2; }
