void work_a(double secs);
void work_b(double secs);
void work_c(double secs);
extern double work_secs;
extern volatile int work_clone_done;
void *work_thread_a(void *arg);
void *work_thread_b(void *arg);
int work_clone(void *arg);
