int fb(int x) { return x * 2; }
