# Makefile.in -- processed by configure into Makefile.
prefix = /usr/local
exec_prefix = ${prefix}
bindir = ${exec_prefix}/bin
datarootdir = ${prefix}/share
mandir = ${datarootdir}/man
CC = gcc
CFLAGS = -g -O2 -Wall -Wextra -std=gnu11
CPPFLAGS = 
LDFLAGS = 
LIBS = -lbfd-multiarch -liberty -lz  -lm

OBJS = gprof.o util.o core.o corefile.o symtab.o sym_ids.o gmon_io.o hist.o \
       call_graph.o cg_arcs.o cg_dfn.o cg_print.o basic_blocks.o source.o

all: gprof

gprof: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

%.o: %.c $(wildcard *.h)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $<

check: gprof
	BFDLIB="-lbfd-multiarch" sh tests/run.sh

demo: gprof
	sh tests/demo.sh

install: gprof
	mkdir -p $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1
	cp gprof $(DESTDIR)$(bindir)/gprof
	cp doc/gprof.1 $(DESTDIR)$(mandir)/man1/gprof.1

# The suite again, with the analyzer built under AddressSanitizer and UBSan.
check-asan:
	rm -rf asan && mkdir asan
	for f in $(OBJS:.o=.c); do $(CC) $(CPPFLAGS) $(CFLAGS) -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -c $$f -o asan/$${f%.c}.o || exit 1; done
	$(CC) -fsanitize=address,undefined -o asan/gprof asan/*.o $(LIBS)
	GPROF=$$(pwd)/asan/gprof BFDLIB="-lbfd-multiarch" ASAN_OPTIONS=detect_leaks=0 sh tests/run.sh

clean:
	rm -f gprof *.o
	rm -rf asan
	rm -rf tests/out

distclean: clean
	rm -f Makefile config.log config.status
	rm -rf autom4te.cache

.PHONY: all check check-asan demo install clean distclean
