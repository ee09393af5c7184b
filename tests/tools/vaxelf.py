#!/usr/bin/env python3
"""Writes a VAX ELF executable (ELF32, little-endian, EM_VAX) from
hand-assembled bytes: one function per form of CALLS destination, for the
VAX call finder (vax.c; tests/unit/vax_elf.c checks the arcs it finds,
case vax_calls compares the whole report with GNU's, which has no VAX
target and says so).  Usage: vaxelf.py OUT"""
import struct, sys

TEXT = 0x1000
RET, NOP = b'\x04', b'\x01'

# (name, bytes); bytes may be a function of the symbol addresses, called
# once the layout is known (every function keeps its length).
funcs = []
def fn(name, code):
    funcs.append((name, code))

def pcrel(mode, size, target):
    """CALLS destination, displacement off the PC: the displacement counts
    from the end of the operand (= the end of this CALLS)."""
    fmt = {1: '<b', 2: '<h', 4: '<i'}[size]
    def enc(here, addr):
        end = here + 1 + size
        return bytes([mode]) + struct.pack(fmt, addr[target] - end)
    return enc

def calls(numarg, dest, tail=RET):
    """CALLS numarg, dest; numarg is operand bytes, dest bytes or a function
    of (address of the dest specifier, symbol addresses)."""
    def enc(here, addr):
        d = dest(here + 1 + len(numarg), addr) if callable(dest) else dest
        return b'\xfb' + numarg + d + tail
    return enc

LIT0 = b'\x00'                           # short literal 0
fn('_start',     calls(LIT0, pcrel(0xaf, 1, 't_a')))          # byte disp(PC)
fn('p_word',     calls(b'\x02', pcrel(0xcf, 2, 't_a')))       # word disp(PC)
fn('p_long',     calls(b'\x8f' + struct.pack('<I', 1), pcrel(0xef, 4, 't_b')))  # #1 immediate
fn('p_abs',      calls(LIT0, lambda h, a: b'\x9f' + struct.pack('<I', a['t_b'])))  # @#addr
fn('p_back',     calls(b'\x51', pcrel(0xcf, 2, 'p_word')))   # numarg in R1; backward
fn('p_reg',      calls(LIT0, b'\x61'))                         # (R1)
fn('p_disp_reg', calls(LIT0, b'\xa2\x04'))                     # 4(R2)
fn('p_deferred', calls(LIT0, pcrel(0xbf, 1, 't_a')))          # @disp(PC)
fn('p_autoinc',  calls(LIT0, b'\x83'))                         # (R3)+
fn('p_indexed',  calls(LIT0, lambda h, a: b'\x43' + pcrel(0xcf, 2, 't_a')(h + 1, a)))  # t_a[R3]
fn('p_regdst',   calls(LIT0, b'\x51'))                         # R1: not an address
fn('p_litdst',   calls(LIT0, b'\x05'))                         # literal: not an address
fn('p_callg',    lambda h, a: b'\xfa\x61' + pcrel(0xcf, 2, 't_a')(h + 2, a) + RET)  # CALLG
fn('p_jsb',      lambda h, a: b'\x16' + pcrel(0xcf, 2, 't_a')(h + 1, a) + RET)     # JSB
fn('p_notstart', lambda h, a: b'\xfb\x00\xcf' + struct.pack('<h', a['t_b'] + 1 - (h + 5)) + RET)
fn('p_far',      calls(LIT0, pcrel(0xef, 4, 'far')))         # outside the histogram
fn('t_a',        lambda h, a: NOP + RET)
fn('t_b',        lambda h, a: NOP * 3 + RET)
fn('t_end',      lambda h, a: RET)
fn('far',        lambda h, a: NOP * 16 + RET)                 # after t_end

def layout():
    dummy = {name: TEXT for name, _ in funcs}
    addr, at = {}, TEXT
    for name, code in funcs:
        addr[name] = at
        at += len(code(at, dummy))
    return addr

addr = layout()
text = b''.join(code(addr[name], addr) for name, code in funcs)
assert len(text) == sum(len(code(addr[n], addr)) for n, code in funcs)

# sections: null, .text, .symtab, .strtab, .shstrtab
shstr = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
strtab = b'\0'
syms = [struct.pack('<IIIBBH', 0, 0, 0, 0, 0, 0)]
names = [n for n, _ in funcs]
ends = [addr[n] for n in names[1:]] + [TEXT + len(text)]
for n, e in zip(names, ends):
    off = len(strtab); strtab += n.encode() + b'\0'
    # STB_GLOBAL, STT_FUNC, section 1
    syms.append(struct.pack('<IIIBBH', off, addr[n], e - addr[n], 0x12, 0, 1))
symtab = b''.join(syms)

ehsize, phsize, shsize = 52, 32, 40
text_off = 0x100
sym_off = text_off + len(text)
sym_off += (-sym_off) % 4
str_off = sym_off + len(symtab)
shs_off = str_off + len(strtab)
sh_off = shs_off + len(shstr)
sh_off += (-sh_off) % 4

ident = b'\x7fELF' + bytes([1, 1, 1, 0]) + bytes(8)
eh = ident + struct.pack('<HHIIIIIHHHHHH', 2, 75, 1, addr['_start'], ehsize, sh_off, 0,
                         ehsize, phsize, 1, shsize, 5, 4)
ph = struct.pack('<IIIIIIII', 1, text_off, TEXT, TEXT, len(text), len(text), 5, 0x1000)
def sh(name, typ, flags, addr_, off, size, link=0, info=0, align=1, entsize=0):
    return struct.pack('<IIIIIIIIII', name, typ, flags, addr_, off, size, link, info, align, entsize)
shdrs = (sh(0, 0, 0, 0, 0, 0)
         + sh(shstr.index(b'.text'), 1, 6, TEXT, text_off, len(text), align=4)
         + sh(shstr.index(b'.symtab'), 2, 0, 0, sym_off, len(symtab), link=3, info=1, align=4, entsize=16)
         + sh(shstr.index(b'.strtab'), 3, 0, 0, str_off, len(strtab))
         + sh(shstr.index(b'.shstrtab'), 3, 0, 0, shs_off, len(shstr)))

img = bytearray(sh_off + len(shdrs))
img[0:ehsize] = eh
img[ehsize:ehsize + phsize] = ph
img[text_off:text_off + len(text)] = text
img[sym_off:sym_off + len(symtab)] = symtab
img[str_off:str_off + len(strtab)] = strtab
img[shs_off:shs_off + len(shstr)] = shstr
img[sh_off:] = shdrs
open(sys.argv[1], 'wb').write(bytes(img))
