/* execpath -- the PATH search of the exec calls, as the C library's:
   each case forks a child (from a thread on the smallest stack pthreads
   allows) that execs as the case says and prints how it ended: the
   exit status of what ran, or the errno of the call that returned.  The
   test runs the build without -pg and the -pg build with libprof (whose
   exec wrappers search PATH themselves, clocks stopped) in the same
   directory and compares their output byte for byte.  Run in a scratch
   directory: it makes a/, b/, c/ and files there. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void put(const char *name, const char *text, int mode)
{
  FILE *f = fopen(name, "w");
  if (!f) exit(2);
  fputs(text, f);
  fclose(f);
  chmod(name, mode);
}

static const char *ename(int e)
{
  switch (e) {
  case ENOENT: return "ENOENT";
  case EACCES: return "EACCES";
  case ENAMETOOLONG: return "ENAMETOOLONG";
  case ENOEXEC: return "ENOEXEC";
  case ENOTDIR: return "ENOTDIR";
  default: return "other";
  }
}

/* case K in a child: PATH set to P (NULL: unset), then the exec */
static void one(int k, const char *p, const char *file)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (p) setenv("PATH", p, 1);
    else unsetenv("PATH");
    char *av[] = { (char *)file, "arg1", NULL };
    char *ev[] = { "EXECPATH_V=from-envp", NULL };
    switch (k % 3) {
    case 0: execvp(file, av); break;
    case 1: execlp(file, file, "arg1", (char *)NULL); break;
    case 2: execvpe(file, av, ev); break;
    }
    printf("  returned %s\n", ename(errno));
    fflush(stdout);
    _exit(99);
  }
  int st;
  if (pid < 0 || waitpid(pid, &st, 0) != pid) exit(2);
  printf("case %d (%s, %s): status %d\n", k, p ? (strlen(p) > 40 ? "long PATH" : p) : "unset",
         strlen(file) > 40 ? "long name" : file, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static void *cases(void *arg)
{
  (void)arg;
  static char longdir[6000], longname[PATH_MAX + 10];
  memset(longdir, 'x', sizeof longdir - 5);
  strcpy(longdir + sizeof longdir - 5, ":b");
  memset(longname, 'n', sizeof longname - 1);
  for (int k = 0; k < 3; k++) {   /* each through execvp, execlp and execvpe */
    int b = 100 * k;
    one(b + 0, "a:b", "libprof-no-such-program");      /* ENOENT */
    one(b + 1, "a:b", "prog");          /* a/prog not executable: b/prog runs */
    one(b + 2, "a", "prog");            /* only a/prog: EACCES */
    one(b + 3, ":/nonexistent", "here");   /* an empty entry: the current directory */
    one(b + 4, "/nonexistent:", "here");   /* the same, last */
    one(b + 5, "a:b", longname);        /* too long a name */
    one(b + 6, longdir, "prog");        /* an entry too long, then b */
    one(b + 7, "c:b", "noshebang");     /* no #!: /bin/sh runs it, found in b */
    one(b + 8, "c:b", "prog");          /* c/prog a directory: on to b/prog */
    one(b + 9, "a:b", "./prog");        /* a slash: no search, ./prog not there */
    one(b + 10, "a:b", "a/prog");       /* a slash, not executable: EACCES */
    one(b + 11, "a:b", "");             /* empty: ENOENT */
    one(b + 12, NULL, "true");          /* unset: the default path */
    one(b + 13, "b:c:a", "env");        /* found nowhere but... ENOENT */
    one(b + 14, "b", "showenv");        /* the environment it got */
  }
  return NULL;
}

int main(void)
{
  mkdir("a", 0755); mkdir("b", 0755); mkdir("c", 0755); mkdir("c/prog", 0755);
  put("a/prog", "#!/bin/sh\nexit 3\n", 0644);
  put("b/prog", "#!/bin/sh\nexit 4\n", 0755);
  put("here", "#!/bin/sh\nexit 5\n", 0755);
  put("b/noshebang", "exit 7\n", 0755);
  put("b/showenv", "#!/bin/sh\n[ \"$EXECPATH_V\" = from-envp ] && exit 20\n[ \"$1\" = arg1 ] && exit 21\nexit 22\n", 0755);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
  pthread_t t;
  if (pthread_create(&t, &at, cases, NULL)) return 2;
  pthread_join(t, NULL);
  return 0;
}
