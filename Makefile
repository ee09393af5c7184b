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

all: gprof libprof/libprof.a libprof/shared/libprof.so

# libprof: the profiling runtime (x86-64 and i386 tested here).
ARCH := $(shell $(CC) -dumpmachine | cut -d- -f1)
LIBPROF_STUB = $(if $(filter x86_64,$(ARCH)),mcount_x86_64,$(if $(filter aarch64,$(ARCH)),mcount_aarch64,mcount_i386))
LIBPROF_CFLAGS = -O2 -g -Wall -Wextra -std=gnu11 -fPIC -fno-omit-frame-pointer -ftls-model=initial-exec

libprof/gmon.o: libprof/gmon.c libprof/prof.h
	$(CC) $(LIBPROF_CFLAGS) -c $< -o $@
libprof/stub.o: libprof/$(LIBPROF_STUB).S libprof/prof.h
	$(CC) -fPIC -c $< -o $@
libprof/libprof.a: libprof/gmon.o libprof/stub.o
	rm -f $@ && ar rcs $@ libprof/gmon.o libprof/stub.o
libprof/shared/libprof.so: libprof/gmon.o libprof/stub.o
	mkdir -p libprof/shared
	$(CC) -shared -o $@ libprof/gmon.o libprof/stub.o -lpthread

gprof: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

%.o: %.c $(wildcard *.h)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $<

check: gprof
	BFDLIB="-lbfd-multiarch" sh tests/run.sh

demo: gprof libprof/libprof.a
	sh tests/demo.sh

libdir = ${exec_prefix}/lib

install: all
	mkdir -p $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man3 $(DESTDIR)$(libdir)
	cp gprof $(DESTDIR)$(bindir)/gprof
	cp libprof/libprof.a libprof/shared/libprof.so $(DESTDIR)$(libdir)/
	cp doc/gprof.1 $(DESTDIR)$(mandir)/man1/gprof.1
	cp doc/libprof.3 $(DESTDIR)$(mandir)/man3/libprof.3

# The suite again, with the analyzer built under AddressSanitizer and UBSan.
check-asan:
	rm -rf asan && mkdir asan
	for f in $(OBJS:.o=.c); do $(CC) $(CPPFLAGS) $(CFLAGS) -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -c $$f -o asan/$${f%.c}.o || exit 1; done
	$(CC) -fsanitize=address,undefined -o asan/gprof asan/*.o $(LIBS)
	GPROF=$$(pwd)/asan/gprof BFDLIB="-lbfd-multiarch" ASAN_OPTIONS=detect_leaks=0 sh tests/run.sh

clean:
	rm -f gprof *.o libprof/*.o libprof/*.a
	rm -rf libprof/shared
	rm -rf asan
	rm -rf tests/out

distclean: clean
	rm -f Makefile config.log config.status
	rm -rf autom4te.cache

.PHONY: all check check-asan demo install clean distclean
