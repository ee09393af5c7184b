CC=gcc
CFLAGS=-O2 -g -Wall -Wextra -std=gnu11
LIBS=-lbfd-multiarch -liberty -lz -lm
OBJS=gprof.o util.o core.o corefile.o symtab.o sym_ids.o gmon_io.o hist.o call_graph.o cg_arcs.o cg_dfn.o cg_print.o basic_blocks.o source.o
gprof: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) $(LIBS)
%.o: %.c *.h
	$(CC) $(CFLAGS) -c $<
