int fa(int); int fb(int); int fc(int);
int main(void) { int s = 0; for (int i = 0; i < 1000; i++) s += fa(i) + fb(i) + fc(i); return s & 1; }
