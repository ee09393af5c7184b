/* A small bytecode interpreter, the shape of program whose profile libprof
   must not disturb: a dispatch loop calling one function per opcode
   through a table, opcodes calling small stack and variable helpers, so
   many distinct arcs are hot at once, and a library function (qsort)
   calling back into the program, as interpreters' sort built-ins do.
   Runs a program that counts the primes below N (argv[1], default
   200000) by trial division, keeping the last 16 sorted, and prints the
   count. */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, LE, EQ, JZ, JMP, INC, DUP, POP, HALT, KEEP, NOPS };
typedef struct { int op, arg; } insn;
typedef struct { long stack[64]; int sp, pc; long vars[8]; const insn *code; int halted; long last[16]; } vm;

__attribute__((noinline)) static void push(vm *m, long v) { m->stack[m->sp++] = v; }
__attribute__((noinline)) static long pop(vm *m) { return m->stack[--m->sp]; }
__attribute__((noinline)) static long peek(vm *m) { return m->stack[m->sp - 1]; }
__attribute__((noinline)) static long var_get(vm *m, int i) { return m->vars[i]; }
__attribute__((noinline)) static void var_set(vm *m, int i, long v) { m->vars[i] = v; }

static void op_push(vm *m, int a) { push(m, a); }
static void op_load(vm *m, int a) { push(m, var_get(m, a)); }
static void op_store(vm *m, int a) { var_set(m, a, pop(m)); }
static void op_add(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) + b); }
static void op_sub(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) - b); }
static void op_mul(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) * b); }
static void op_mod(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) % b); }
static void op_lt(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) < b); }
static void op_le(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) <= b); }
static void op_eq(vm *m, int a) { (void)a; long b = pop(m); push(m, pop(m) == b); }
static void op_jz(vm *m, int a) { if (!pop(m)) m->pc = a; }
static void op_jmp(vm *m, int a) { m->pc = a; }
static void op_inc(vm *m, int a) { var_set(m, a, var_get(m, a) + 1); }
static void op_dup(vm *m, int a) { (void)a; push(m, peek(m)); }
static void op_pop(vm *m, int a) { (void)a; pop(m); }
static void op_halt(vm *m, int a) { (void)a; m->halted = 1; }
static int by_value(const void *a, const void *b)
{
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}
static void op_keep(vm *m, int a)
{
  m->last[0] = var_get(m, a);        /* replaces the smallest */
  qsort(m->last, 16, sizeof *m->last, by_value);
}

static void (*const ops[NOPS])(vm *, int) = {
  op_push, op_load, op_store, op_add, op_sub, op_mul, op_mod, op_lt, op_le, op_eq,
  op_jz, op_jmp, op_inc, op_dup, op_pop, op_halt, op_keep,
};

__attribute__((noinline)) static void step(vm *m)
{
  const insn *i = &m->code[m->pc++];
  ops[i->op](m, i->arg);
}

__attribute__((noinline)) static void run(vm *m)
{
  while (!m->halted) step(m);
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : 200000;
  /* v0 = candidate, v1 = divisor, v2 = count, v3 = limit */
  const insn prog[] = {
    /* 0 */ { PUSH, 2 }, { STORE, 0 }, { PUSH, 0 }, { STORE, 2 },
    /* 4: outer: while v0 < v3 */ { LOAD, 0 }, { LOAD, 3 }, { LT, 0 }, { JZ, 32 },
    /* 8 */ { PUSH, 2 }, { STORE, 1 },
    /* 10: inner: while v1 * v1 <= v0 */ { LOAD, 1 }, { DUP, 0 }, { MUL, 0 }, { LOAD, 0 }, { LE, 0 }, { JZ, 26 },
    /* 16: if v0 % v1 == 0 -> not prime */ { LOAD, 0 }, { LOAD, 1 }, { MOD, 0 }, { PUSH, 0 }, { EQ, 0 }, { JZ, 24 },
    /* 22 */ { JMP, 30 }, { HALT, 0 },
    /* 24 */ { INC, 1 }, { JMP, 10 },
    /* 26: prime */ { INC, 2 }, { KEEP, 0 }, { PUSH, 0 }, { POP, 0 },
    /* 30: next */ { INC, 0 }, { JMP, 4 },
    /* 32 */ { HALT, 0 },
  };
  vm m = { .code = prog };
  m.vars[3] = n;
  run(&m);
  printf("%ld %ld\n", m.vars[2], m.last[15]);
  return 0;
}
