void work_a(double secs);
void work_b(double secs);
void work_c(double secs);
