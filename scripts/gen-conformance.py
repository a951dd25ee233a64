#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""gen-conformance.py - Write traces/conformance/*/*.vtr: upstream PMU tests as guest actions.

Each scenario is one test function of kvm-unit-tests x86/pmu.c (1da1819e) or of the KVM
selftests' pmu_counters_test.c, for one PMU shape, with the test's own pass conditions as
"!expect" lines (docs/trace-format.md, Expectations). The files are checked in; run this again
after changing it (scripts/gen-conformance.py, from the top folder) and review the diff.
Guest actions follow trace-format.md: an intercepted instruction is "exit, effect, retire,
entry"; a forced-emulation (FEP) instruction is "#UD exit, retire, entry"; native
instructions are "guest insn=N br=M".
"""
import os

M48 = (1 << 48) - 1
EN, INT, OS, USR = 1 << 22, 1 << 20, 1 << 17, 1 << 16
PMI_VECTOR = 32  # lib/x86/pmu.h

# (vendor, global MSRs) of the shapes; kut's lib/x86/pmu.c pmu_init() picks the MSRs.
INTEL = dict(vendor='intel', ctr=0xc1, sel=0x186, stride=1, gctl=0x38f, gsts=0x38e,
             gclr=0x390, insn=0xc0, br=0xc4)
AMD2 = dict(vendor='amd', ctr=0xc0010201, sel=0xc0010200, stride=2, gctl=0xc0000301,
            gsts=0xc0000300, gclr=0xc0000302, insn=0xc0, br=0xc2)
AMDK7 = dict(vendor='amd', ctr=0xc0010004, sel=0xc0010000, stride=1, gctl=None, gsts=None,
             gclr=None, insn=0xc0, br=0xc2)


class Scenario:
    def __init__(self, header, pmu, host=None):
        self.lines = [l.rstrip() for l in header.strip('\n').split('\n')]
        self.lines = ['# ' + l if l else '#' for l in self.lines]
        self.lines.append('!vpmcsim-trace 1')
        self.lines.append('!pmu ' + pmu)
        if host:
            self.lines.append('!host kernel=' + host)
        self.t = 0

    def ev(self, s):
        self.t += 10
        self.lines.append('%d 0 %s' % (self.t, s))

    def raw(self, s):
        self.lines.append(s)

    def note(self, s):
        self.lines.append('# ' + s)

    def exit_(self, reason, *effect, branch=False):
        self.ev('exit ' + reason)
        for e in effect:
            self.ev(e)
        self.ev('retire branch' if branch else 'retire')
        self.ev('entry')

    def wrmsr(self, msr, val):
        self.exit_('MSR_WRITE', 'wrmsr %#x %#x' % (msr, val))

    def rdmsr(self, msr):
        self.exit_('MSR_READ', 'rdmsr %#x' % msr)

    def rdpmc(self, ecx):
        self.exit_('RDPMC', 'rdpmc %#x' % ecx)

    def rdpmc_gp(self, ecx):
        # RDPMC that raises #GP: no retirement (the exception is injected instead)
        self.ev('exit RDPMC')
        self.ev('rdpmc %#x' % ecx)
        self.ev('entry')

    def wrmsr_gp(self, msr, val):
        self.ev('exit MSR_WRITE')
        self.ev('wrmsr %#x %#x' % (msr, val))
        self.ev('entry')

    def cpuid(self):
        self.exit_('CPUID')

    def fep(self, branch):
        self.exit_('EXCEPTION_NMI', branch=branch)

    def native(self, insn, br=0):
        self.ev('guest insn=%d br=%d' % (insn, br) if br else 'guest insn=%d' % insn)

    def lvtpc(self, v):
        # xAPIC MMIO write, emulated (an APIC-access exit; kut does not enable x2APIC here)
        self.exit_('APIC_ACCESS', 'lvtpc %#x' % v)

    def expect(self, s):
        self.lines.append('!expect ' + s)

    def write(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write('\n'.join(self.lines) + '\n')


def gp_ctr(v, i, fw=False):
    if fw and v['vendor'] == 'intel':
        return 0x4c1 + i
    return v['ctr'] + v['stride'] * i


def gp_sel(v, i):
    return v['sel'] + v['stride'] * i


def pmu_line(v, version, gp, fixed=0, fw=1):
    if v['vendor'] == 'amd':
        return 'vendor=amd version=%d gp=%d gp_width=48' % (version, gp)
    return ('vendor=intel version=%d gp=%d fixed=%d gp_width=48 fixed_width=48 fw_writes=%d'
            % (version, gp, fixed, fw))


OUT = 'traces/conformance'

# ---- kvm-unit-tests x86/pmu.c: check_emulated_instr() --------------------------------------

EMUL_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_emulated_instr(), %(shape)s.

GP0 counts branches (%(br)#x), GP1 instructions (0xc0), OS|USR, via %(ctrs)s. Before it: main()
wrote GLOBAL_CTRL = 0 (v2+); pmu_clear_global_status(); __start_event() x2 (counter <- 0,
eventsel <- config|EN, LVTPC <- PMI_VECTOR; no global_enable()), then GP0 <- -5, GP1 <- -22
(KVM_FEP_BRANCHES, KVM_FEP_INSNS, masked to 48 bits). The kvm_fep_asm() blob, as guest actions:
  %(wr1)s
  MOV ECX->EDI, MOV EAX<-0, CMP               native                      3
  5 x KVM_FEP JNE (not taken)                 #UD exit, emulated branch   5 (5 branches)
  5 x (MOV EAX<-0xA; CPUID)                   native + intercepted        10
  MOV EDI->ECX, XOR, XOR                      native                      3
  %(wr2)s
%(counts)s
Then __stop_event() x2 (eventsel <- config without EN; RDMSR counter) and, for v2+, RDMSR
GLOBAL_STATUS. The test computes count - start in u64 with start = -5 / -22 (64-bit), so
"count - start == N" is "count == 0" (the 48-bit counter wrapped exactly to 0).
Deciding functions: the counts, kvm_pmu_trigger_event() (every emulated instruction and branch,
kvm-vpmu-semantics.md 6.3); GP0's overflow, reprogram_counter() -> pmc_pause_counter() at the
drain after the 5th JNE (emulated overflow); GP1's, kvm_perf_overflow() (perf, at the last
native XOR: period 21 armed by the drain after the enabling WRMSR).
"""


def check_emulated_instr(name, v, version, gp, fw=False, fixed=0, host=None, shape=''):
    has_g = version > 1
    ctr0, ctr1 = gp_ctr(v, 0, fw), gp_ctr(v, 1, fw)
    if has_g:
        counts = ('  GP1 counts 1 + 3 + 5 + 10 + 3 = 22 and wraps at the last XOR; GP0 counts 5 and\n'
                  '  wraps at the 5th JNE. The disabling WRMSR is not counted (it retires after\n'
                  '  GLOBAL_CTRL = 0). Asserted exactly (no erratum): count == 0 for both, and\n'
                  '  GLOBAL_STATUS bits 0 and 1.')
        wr1 = 'WRMSR GLOBAL_CTRL <- 3                      intercepted, counted        1'
        wr2 = 'WRMSR GLOBAL_CTRL <- 0                      intercepted, not counted    0'
    else:
        counts = ('  v1 (no GLOBAL_CTRL): both WRMSRs are NOPs and counters count from their\n'
                  '  eventsel write on; the test only checks count - start >= N in u64, which\n'
                  '  holds for any 48-bit count (count + 22 never wraps 64 bits): encoded as\n'
                  '  count < 2^64 - 22 (always true), and no GLOBAL_STATUS check.')
        wr1 = 'NOP                                         native                      1'
        wr2 = 'NOP                                         native                      1'
    s = Scenario(EMUL_HEAD % dict(name=os.path.basename(name), shape=shape, br=v['br'],
                                  ctrs='%#x/%#x' % (ctr0, ctr1), wr1=wr1, wr2=wr2,
                                  counts=counts),
                 pmu_line(v, version, gp, fixed), host)
    cfg_br, cfg_in = OS | USR | v['br'], OS | USR | v['insn']
    if has_g:
        s.note('main(): GLOBAL_CTRL <- 0; pmu_clear_global_status()')
        s.wrmsr(v['gctl'], 0)
        s.rdmsr(v['gsts'])
        s.wrmsr(v['gclr'], 0)
    s.note('__start_event(&brnch_cnt, 0), __start_event(&instr_cnt, 0)')
    for i, cfg in ((0, cfg_br), (1, cfg_in)):
        s.wrmsr(gp_ctr(v, i, fw), 0)
        s.wrmsr(gp_sel(v, i), cfg | EN)
        s.lvtpc(PMI_VECTOR)
    s.wrmsr(ctr0, -5 & M48)
    s.wrmsr(ctr1, -22 & M48)
    s.note('kvm_fep_asm()')
    if has_g:
        s.wrmsr(v['gctl'], 3)
    else:
        s.native(1)
    s.native(3)
    for _ in range(5):
        s.fep(True)
    for _ in range(5):
        s.native(1)
        s.cpuid()
    s.native(3)
    if has_g:
        s.wrmsr(v['gctl'], 0)
    else:
        s.native(1)
    s.note('__stop_event(&brnch_cnt), __stop_event(&instr_cnt)')
    s.wrmsr(gp_sel(v, 0), cfg_br)
    s.rdmsr(ctr0)
    s.wrmsr(gp_sel(v, 1), cfg_in)
    s.rdmsr(ctr1)
    if has_g:
        s.rdmsr(v['gsts'])
        s.expect('rdmsr %#x == 0x0 by=kvm_pmu_trigger_event "instruction count"' % ctr1)
        s.expect('rdmsr %#x == 0x0 by=kvm_pmu_trigger_event "branch count"' % ctr0)
        s.expect('rdmsr %#x & 0x1 == 0x1 by=reprogram_counter "branch counter overflow"'
                 % v['gsts'])
        s.expect('rdmsr %#x & 0x2 == 0x2 by=kvm_perf_overflow "instruction counter overflow"'
                 % v['gsts'])
    else:
        s.expect('rdmsr %#x < 0xffffffffffffffea by=kvm_pmu_trigger_event "instruction count"'
                 % ctr1)
        s.expect('rdmsr %#x < 0xfffffffffffffffb by=kvm_pmu_trigger_event "branch count"'
                 % ctr0)
    s.write(name)


# ---- check_rdpmc() and check_invalid_rdpmc_gp() ---------------------------------------------

RDPMC_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_rdpmc(), %(shape)s.

For each GP counter i: WRMSR counter i <- val = 0xff0123456789 through %(how)s, then RDPMC(i)
must read x = %(x)s ("cntr-i"): intel_pmu_set_msr() sign-extends a 32-bit legacy
write (or takes a full-width one), pmc_write_counter() masks it to 48 bits, kvm_pmu_rdpmc()
returns pmc_read_counter(). Then RDPMC(i | 1 << 31), "fast" mode: KVM raises #GP (6.9+,
intel_rdpmc_ecx_to_pmc() rejects type bit 31, d652981db08f), so the test reports
"fast-i" skipped: encoded as "== GP" (nothing to check when it does not fault either, but a
read that does not fault must return (u32)val; an older host that ignores bit 31 reads x).
%(fixed)sNo counter is enabled, so nothing counts; the value is whatever was written.
"""


def check_rdpmc(name, v, version, gp, fixed, fw, shape, host=None):
    val = 0xff0123456789
    if v['vendor'] == 'intel' and not fw:
        x = (val & 0xffffffff)
        x = (x | ~0xffffffff) if x & 0x80000000 else x
        x &= M48
        how = 'the legacy alias 0xc1+i (32 bits, sign-extended)'
    else:
        x = val & M48
        how = ('the full-width alias 0x4c1+i' if v['vendor'] == 'intel'
               else 'the PERF_CTR MSRs (48 bits)')
    fixed_txt = ''
    if fixed:
        fixed_txt = ('Fixed counter i: WRMSR 0x309+i <- val & mask, RDPMC(1 << 30 | i) reads it;\n'
                     'fast mode (bit 31) #GPs as above.\n')
    s = Scenario(RDPMC_HEAD % dict(name=os.path.basename(name), shape=shape, how=how,
                                   x='%#x' % x, fixed=fixed_txt),
                 pmu_line(v, version, gp, fixed, 1 if fw else 0), host)
    for i in range(gp):
        s.wrmsr(gp_ctr(v, i, fw), val)
        s.rdpmc(i)
        s.expect('rdpmc %#x == %#x by=kvm_pmu_rdpmc "cntr-%d"' % (i, x, i))
        if v['vendor'] == 'intel':
            s.rdpmc_gp(i | 1 << 31)
            s.expect('rdpmc %#x == GP by=intel_rdpmc_ecx_to_pmc "fast-%d"' % (i | 1 << 31, i))
    for i in range(fixed):
        s.wrmsr(0x309 + i, val & M48)
        s.rdpmc(1 << 30 | i)
        s.expect('rdpmc %#x == %#x by=kvm_pmu_rdpmc "fixed cntr-%d"' % (1 << 30 | i, val & M48, i))
        s.rdpmc_gp(3 << 30 | i)
        s.expect('rdpmc %#x == GP by=intel_rdpmc_ecx_to_pmc "fixed fast-%d"'
                 % (3 << 30 | i, i))
    s.write(name)


INVAL_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_invalid_rdpmc_gp(), %(shape)s.

RDPMC(64) must raise #GP ("Expected #GP on RDPMC(64)"): %(why)s
"""


def check_invalid_rdpmc_gp(name, v, version, gp, fixed, shape, why):
    s = Scenario(INVAL_HEAD % dict(name=os.path.basename(name), shape=shape, why=why),
                 pmu_line(v, version, gp, fixed))
    s.rdpmc_gp(64)
    s.expect('rdpmc 0x40 == GP by=kvm_pmu_rdpmc "Expected #GP on RDPMC(64)"')
    s.write(name)


# ---- check_gp_counters_write_width() ---------------------------------------------------------

WIDTH_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_gp_counters_write_width(),
%(shape)s (run in the "full-width writes" pass only).

val_64 = 0xffffff0123456789, val_32 = 0x23456789, val_max_width = 0xff0123456789.
Legacy PERFCTRi (0xc1+i): every write reads back val_32 through both aliases: intel_pmu_set_msr()
sign-extends the low 32 bits (bit 31 of 0x23456789 is clear). Full-width PMCi (0x4c1+i): val_32
and val_max_width read back as written through both aliases; val_64 has bits above the width,
so the write #GPs ("writing unsupported width to MSR_IA32_PMC%%d raises #GP";
intel_pmu_set_msr(): data & ~pmc_bitmask -> 1). The asserts are assert()s in the test (a
failure aborts it); all are listed here, the report() last in each loop.
"""


def check_gp_counters_write_width(name, gp, shape):
    v = INTEL
    v64, v32, vmax = 0xffffff0123456789, 0x23456789, 0xff0123456789
    s = Scenario(WIDTH_HEAD % dict(name=os.path.basename(name), shape=shape),
                 pmu_line(v, 2, gp, 3, 1))
    def write_read(i, wr, rd, vals, got):
        names = {0xc1: 'PERFCTR', 0x4c1: 'PMC'}
        for val in vals:
            s.wrmsr(wr + i, val)
            for msr, fn in ((wr, 'intel_pmu_set_msr'), (rd, 'intel_pmu_get_msr')):
                s.rdmsr(msr + i)
                s.expect('rdmsr %#x == %#x by=%s "%s%d after %s%d <- %#x"'
                         % (msr + i, got(val), fn, names[msr], i, names[wr], i, val))
    for i in range(gp):
        write_read(i, 0xc1, 0x4c1, (v32, vmax, v64), lambda val: v32)
    for i in range(gp):
        write_read(i, 0x4c1, 0xc1, (v32, vmax), lambda val: val)
        s.wrmsr_gp(0x4c1 + i, v64)
        s.expect('wrmsr %#x == GP by=intel_pmu_set_msr "writing unsupported width to PMC%d"'
                 % (0x4c1 + i, i))
    s.write(name)


# ---- check_running_counter_wrmsr() and check_counter_overflow() --------------------------------

N = 1000000
# __loop() / __precise_loop() (LOOP_ASM, CLFLUSH, no IBPB: the IBPB WRMSR is a NOP): the loop
# body 10 x N instructions, N branches; around it NOP-or-WRMSR, 2 MOV, CLFLUSH, MFENCE, the
# IBPB_JMP block (9 instructions, 2 branches: CALL, JMP), MOV, XOR, XOR, NOP-or-WRMSR.
LOOP_NATIVE = 2 + 2 + 10 * N + 9 + 3   # between the two _wrmsr1 (precise: both WRMSRs)
LOOP_BR = N + 2
LOOP_INSNS = 10 * N + 17               # kut's LOOP_INSNS: the enabling WRMSR counts itself

RUNNING_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_running_counter_wrmsr(),
%(shape)s.

GP0 counts instructions, OS|USR. start_event() (counter <- 0, eventsel <- EN, LVTPC, and for
v2+ GLOBAL_CTRL |= 1, which counts itself), __loop() natively (%(loop)d instructions: the loop
without the precise WRMSRs, NOPs instead), WRMSR counter <- 0 while it runs (its own retirement
counts 1), stop_event(): the count must be below the event's minimum (%(min)d: LOOP_INSNS for
Intel v2+ after adjust_events_range(), else 10 * N) ("cntr"; pmc_write_counter() drops what
was counted). Then GLOBAL_STATUS is cleared, start_event() again, WRMSR counter <- -1 (%(neg)s),
__loop(), stop_event(), and GLOBAL_STATUS bit 0 must be set ("status msr bit", v2+ only): the
write's own retirement wraps the counter to 0 (an emulated overflow found by pmc_pause_counter()
in reprogram_counter() at the next drain); under tolerance=T the pending event leaves perf armed
with period 2 (x86 minimum), so kvm_perf_overflow() reports it within the loop instead.
"""


def start_event(s, v, i, cfg, ctr, has_g):
    s.wrmsr(ctr, 0)
    s.wrmsr(gp_sel(v, i), cfg | EN)
    s.lvtpc(PMI_VECTOR)
    if has_g:
        s.rdmsr(v['gctl'])
        s.wrmsr(v['gctl'], 1 << i)


def stop_event(s, v, i, cfg, ctr, has_g):
    if has_g:
        s.rdmsr(v['gctl'])
        s.wrmsr(v['gctl'], 0)
    s.wrmsr(gp_sel(v, i), cfg)
    s.rdmsr(ctr)


def check_running_counter_wrmsr(name, v, version, gp, fixed, fw, shape):
    has_g = version > 1
    ctr = gp_ctr(v, 0, fw)
    cfg = OS | USR | v['insn']
    minimum = LOOP_INSNS if (v['vendor'] == 'intel' and has_g) else 10 * N
    neg = 'full-width: 2^48 - 1' if fw else '64-bit -1, sign-extended and masked to 2^48 - 1'
    s = Scenario(RUNNING_HEAD % dict(name=os.path.basename(name), shape=shape, min=minimum,
                                     loop=LOOP_NATIVE + 2, neg=neg),
                 pmu_line(v, version, gp, fixed, 1 if fw else 0))
    if has_g:
        s.wrmsr(v['gctl'], 0)
    start_event(s, v, 0, cfg, ctr, has_g)
    s.native(LOOP_NATIVE + 2, LOOP_BR)
    s.wrmsr(ctr, 0)
    stop_event(s, v, 0, cfg, ctr, has_g)
    s.expect('rdmsr %#x < %d by=pmc_write_counter "cntr"' % (ctr, minimum))
    if has_g:
        s.rdmsr(v['gsts'])
        s.wrmsr(v['gclr'], 0)
    start_event(s, v, 0, cfg, ctr, has_g)
    s.wrmsr(ctr, M48 if fw else 0xffffffffffffffff)
    s.native(LOOP_NATIVE + 2, LOOP_BR)
    stop_event(s, v, 0, cfg, ctr, has_g)
    if has_g:
        s.rdmsr(v['gsts'])
        s.expect('rdmsr %#x & 0x1 == 0x1 by=reprogram_counter "status msr bit"' % v['gsts'])
    s.write(name)


OVF_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) check_counter_overflow(), %(shape)s.

measure_for_overflow(): __measure(GP0 = instructions, 0) counts %(count)d (%(how)s);
preset = 1 - count. Then for each GP counter i (and Intel's fixed counter 0, measured again the
same way, as i = nr_gp): counter <- preset, eventsel <- EN (INT for odd i), LVTPC, the loop:
the counter wraps to 0 at the loop's last native instruction and reads 1 ("cntr-i"; AMD:
== 0xffffffffffff or < 7): perf's overflow, kvm_perf_overflow() -> __kvm_perf_overflow() sets
GLOBAL_STATUS bit idx ("status-i"); WRMSR STATUS_CLR clears it ("status clear-i"); check_irq()
sees a PMI exactly for odd i ("irq-i": cumulative delivered PMIs == number of odd i so far; the
PMI is held by the guest's CLI until check_irq(), the model counts its delivery; the intr that
decides it is cached by pmc_reprogram_counter() when the perf event is created).
%(v1)sThe presets are numbers here; the test computes them from its measurement, so a
"precondition: measured count" line checks that the policy measures what the preset assumes
(a policy that measures otherwise fails there, not at an assertion of the test).
"""


def check_counter_overflow(name, v, version, gp, fixed, fw, shape):
    has_g = version > 1
    cfg = OS | USR | v['insn']
    if has_g:
        count = LOOP_INSNS
        how = 'the precise loop: its enabling WRMSR GLOBAL_CTRL and 10 N + 16 native'
        v1 = ''
    else:
        count = LOOP_NATIVE + 2 + 2
        how = ('v1: the eventsel and LVTPC writes count (counters run from EN on), then\n'
               '__loop() natively')
        v1 = 'v1 has no GLOBAL_STATUS: only "cntr-i" is checked.\n'
    s = Scenario(OVF_HEAD % dict(name=os.path.basename(name), shape=shape, count=count,
                                 how=how, v1=v1),
                 pmu_line(v, version, gp, fixed, 1 if fw else 0))
    if has_g:
        s.wrmsr(v['gctl'], 0)

    def measure(i, ctr, preset, fixed_ctr, intr):
        if fixed_ctr:
            s.wrmsr(0x309, preset)
            s.rdmsr(0x38d)
            s.wrmsr(0x38d, 0xb if intr else 0x3)
        else:
            s.wrmsr(ctr, preset)
            s.wrmsr(gp_sel(v, i), cfg | EN | (INT if intr else 0))
        s.lvtpc(PMI_VECTOR)
        if has_g:
            s.wrmsr(v['gctl'], 1 << (32 if fixed_ctr else i))
            s.native(LOOP_NATIVE, LOOP_BR)
            s.wrmsr(v['gctl'], 0)
        else:
            s.native(LOOP_NATIVE + 2, LOOP_BR)
        if fixed_ctr:
            s.rdmsr(0x38d)
            s.wrmsr(0x38d, 0)
            s.rdmsr(0x309)
        else:
            s.wrmsr(gp_sel(v, i), cfg | (INT if intr else 0))
            s.rdmsr(ctr)

    measure(0, gp_ctr(v, 0, fw), 0, False, False)
    # The test writes 1 - (what it measured); a scenario holds numbers: if a policy measures
    # another count, the preset below is not the one the test would write (README.md).
    s.expect('rdmsr %#x == %d by=kvm_pmu_trigger_event "precondition: measured count"'
             % (gp_ctr(v, 0, fw), count))
    preset = (1 - count) & ((1 << 64) - 1)
    if fw:
        preset &= M48
    if has_g:
        s.rdmsr(v['gsts'])
        s.wrmsr(v['gclr'], 0)
    pmis = 0
    n = gp + (1 if v['vendor'] == 'intel' and fixed else 0)
    for i in range(n):
        fixed_ctr = i == gp
        intr = i % 2 == 1
        if fixed_ctr:
            measure(0, 0x309, 0, True, (i - 1) % 2 == 1)
            s.expect('rdmsr 0x309 == %d by=kvm_pmu_trigger_event "precondition: measured count"'
                     % count)
            p = (1 - count) & M48
            ctr, idx = 0x309, 32
        else:
            p, ctr, idx = preset, gp_ctr(v, i, fw), i
        measure(i, ctr, p, fixed_ctr, intr)
        if v['vendor'] == 'intel':
            s.expect('rdmsr %#x == 0x1 by=kvm_perf_overflow "cntr-%d"' % (ctr, i))
        else:
            s.expect('rdmsr %#x < 0x7 by=kvm_perf_overflow "cntr-%d"' % (ctr, i))
        if not has_g:
            continue
        s.rdmsr(v['gsts'])
        s.expect('rdmsr %#x & %#x == %#x by=__kvm_perf_overflow "status-%d"'
                 % (v['gsts'], 1 << idx, 1 << idx, i))
        s.wrmsr(v['gclr'], 1 << idx)
        s.rdmsr(v['gsts'])
        s.expect('rdmsr %#x & %#x == 0x0 by=kvm_pmu_set_msr "status clear-%d"'
                 % (v['gsts'], 1 << idx, i))
        pmis += intr
        s.expect('pmis == %d by=kvm_apic_local_deliver "irq-%d"' % (pmis, i))
    s.write(name)


# ---- selftests: tools/testing/selftests/kvm/x86/pmu_counters_test.c ------------------------------

ARCH_HEAD = """%(name)s - KVM selftests x86/pmu_counters_test.c (newest: ENTER/LEAVE in the loop,
e8f85d7884e0, 6.18) guest_test_arch_event(%(idx)s), %(shape)s.

For every GP counter i: EVNTSEL i <- 0, %(gctl)sGUEST_TEST_EVENT() twice, without and with
forced emulation (FEP): counter <- 0 (%(pmc)s), then GUEST_MEASURE_EVENT():
  WRMSR ctrl <- value          enabling: counts itself (kvm_pmu_instruction_retired())   1
  MOV ECX <- 10                native                                                     1
  10 x { [FEP] ENTER 0,0; CLFLUSHOPT; MFENCE; MOV EAX <- [m]; [FEP] LEAVE; [FEP] LOOP }   60
  [FEP] MOV ECX <- EDI, [FEP] XOR, [FEP] XOR                                              3
  WRMSR ctrl <- 0              disabling: not counted                                     0
NUM_INSNS_RETIRED = 10 * 6 + 5 = 65, NUM_BRANCH_INSNS_RETIRED = 10 (the LOOPs; ENTER and LEAVE
are no branches since 6.18, which the importer decides: the model receives "retire" without
"branch"). With FEP every bracketed instruction is a #UD exit that KVM emulates: 1 + 33 = 34
KVM-counted instructions and 10 KVM-counted branches, all through kvm_pmu_trigger_event().
guest_assert_event_count(): RDPMC(i) == %(want)d exactly (no erratum assumed); then, disabled,
"loop ." x 10 natively must leave RDPMC unchanged, and WRMSR counter <- 0xdead must read back
0xdead by RDPMC (pmc_write_counter(), kvm_pmu_rdpmc()).
%(fixed)s"""


def selftest_measure(s, ctrl, value, fep, ctr, rdpmc_idx, want, label):
    s.wrmsr(ctr, 0)
    s.wrmsr(ctrl, value)
    s.native(1)

    def insn(branch, emulated):
        if emulated:
            s.fep(branch)
        else:
            s.native(1, 1 if branch else 0)
    for _ in range(10):
        insn(False, fep)          # ENTER
        s.native(3)               # CLFLUSHOPT, MFENCE, MOV
        insn(False, fep)          # LEAVE
        insn(True, fep)           # LOOP
    for _ in range(3):
        insn(False, fep)          # MOV, XOR, XOR
    s.wrmsr(ctrl, 0)
    s.rdpmc(rdpmc_idx)
    s.expect('rdpmc %#x == %d by=kvm_pmu_trigger_event "%s%s count"'
             % (rdpmc_idx, want, label, ' (FEP)' if fep else ''))
    s.native(11, 10)              # MOV ECX <- 10, 10 x LOOP . (disabled)
    s.rdpmc(rdpmc_idx)
    s.expect('rdpmc %#x == %d by=pmc_is_locally_enabled "%s%s unchanged when disabled"'
             % (rdpmc_idx, want, label, ' (FEP)' if fep else ''))
    s.wrmsr(ctr, 0xdead)
    s.rdpmc(rdpmc_idx)
    s.expect('rdpmc %#x == 0xdead by=pmc_write_counter "%s%s write 0xdead"'
             % (rdpmc_idx, label, ' (FEP)' if fep else ''))


def guest_test_arch_event(name, event, version, gp, fixed, fw, shape):
    v = INTEL
    idx, evsel, want = {'insn': ('INTEL_ARCH_INSTRUCTIONS_RETIRED_INDEX', 0xc0, 65),
                        'br': ('INTEL_ARCH_BRANCHES_RETIRED_INDEX', 0xc4, 10)}[event]
    has_g = version > 1
    base = 0x4c1 if fw else 0xc1
    do_fixed = has_g and fixed and event == 'insn'
    fixed_txt = ''
    if do_fixed:
        fixed_txt = ('Then fixed counter 0 (instructions): FIXED_CTR_CTRL <- kernel-only for it, and\n'
                     'the same twice with GLOBAL_CTRL as the control (value bit 32), RDPMC(1 << 30).\n')
    s = Scenario(ARCH_HEAD % dict(name=os.path.basename(name), idx=idx, shape=shape,
                                  gctl='GLOBAL_CTRL <- BIT(i), ' if has_g else '',
                                  pmc='%#x + i' % base, want=want, fixed=fixed_txt),
                 pmu_line(v, version, gp, fixed, 1 if fw else 0))
    for i in range(gp):
        s.wrmsr(0x186 + i, 0)
        if has_g:
            s.wrmsr(0x38f, 1 << i)
        for fep in (False, True):
            selftest_measure(s, 0x186 + i, OS | EN | evsel, fep, base + i, i, want,
                             'GP%d' % i)
    if do_fixed:
        s.wrmsr(0x38d, 0x1)
        for fep in (False, True):
            selftest_measure(s, 0x38f, 1 << 32, fep, 0x309, 1 << 30, want, 'fixed 0')
    s.write(name)


GPC_HEAD = """%(name)s - KVM selftests x86/pmu_counters_test.c guest_test_gp_counters(), %(shape)s.

%(gctl)sThen guest_rd_wr_counters() over the 8 GP counter MSRs the SDM defines (%(base)s):
counter i < %(nr)d is supported: WRMSR 0xffff, RDMSR and RDPMC(i) (also through forced
emulation: a #UD exit into the emulator's RDPMC, the same kvm_pmu_rdpmc()) read 0xffff; fast
RDPMC (bit 31) #GPs; WRMSR 0 succeeds. An unsupported one #GPs on every access (RDPMC too),
except 0xc1/0xc2 (MSR_P6_PERFCTR0/1), whose writes KVM drops and which read 0 (kvm_set_msr_common()
/ kvm_get_msr_common()); RDPMC of it #GPs all the same.
"""


def guest_test_gp_counters(name, version, gp, fw, shape):
    v = INTEL
    base = 0x4c1 if fw else 0xc1
    gctl = ''
    if version > 1:
        gctl = ('PERF_GLOBAL_CTRL must read (1 << %d) - 1 = %#x after RESET (kvm_pmu_refresh(),\n'
                'de120e1d692d, 6.9; 0 without GP counters). ' % (gp, (1 << gp) - 1))
    s = Scenario(GPC_HEAD % dict(name=os.path.basename(name), shape=shape, gctl=gctl,
                                 base='%#x..%#x' % (base, base + 7), nr=gp),
                 pmu_line(v, version, gp, 3 if version > 1 else 0, 1 if fw else 0))
    if version > 1:
        s.rdmsr(0x38f)
        s.expect('rdmsr 0x38f == %#x by=kvm_pmu_refresh "GLOBAL_CTRL after RESET"'
                 % ((1 << gp) - 1))
    for i in range(8):
        msr = base + i
        ok = i < gp
        gp_exp = not ok and msr not in (0xc1, 0xc2)
        if gp_exp:
            s.wrmsr_gp(msr, 0xffff)
            s.expect('wrmsr %#x == GP by=intel_pmu_set_msr "WRMSR(%#x) #GP"' % (msr, msr))
            s.ev('exit MSR_READ')
            s.ev('rdmsr %#x' % msr)
            s.ev('entry')
            s.expect('rdmsr %#x == GP by=intel_pmu_get_msr "RDMSR(%#x) #GP"' % (msr, msr))
        else:
            s.wrmsr(msr, 0xffff)
            s.expect('wrmsr %#x != GP by=kvm_set_msr_common "WRMSR(%#x) no fault"' % (msr, msr))
            s.rdmsr(msr)
            s.expect('rdmsr %#x == %#x by=kvm_get_msr_common "RDMSR(%#x) value"'
                     % (msr, 0xffff if ok else 0, msr))
        for fep in (False, True):
            tag = ' (FEP)' if fep else ''
            if ok:
                s.exit_('EXCEPTION_NMI' if fep else 'RDPMC', 'rdpmc %#x' % i)
                s.expect('rdpmc %#x == 0xffff by=kvm_pmu_rdpmc "RDPMC(%d)%s"' % (i, i, tag))
            else:
                s.ev('exit ' + ('EXCEPTION_NMI' if fep else 'RDPMC'))
                s.ev('rdpmc %#x' % i)
                s.ev('entry')
                s.expect('rdpmc %#x == GP by=intel_rdpmc_ecx_to_pmc "RDPMC(%d) #GP%s"' % (i, i, tag))
        for fep in (False, True):
            s.ev('exit ' + ('EXCEPTION_NMI' if fep else 'RDPMC'))
            s.ev('rdpmc %#x' % (i | 1 << 31))
            s.ev('entry')
            s.expect('rdpmc %#x == GP by=intel_rdpmc_ecx_to_pmc "fast RDPMC(%d) #GP%s"'
                     % (i | 1 << 31, i, ' (FEP)' if fep else ''))
        if gp_exp:
            s.wrmsr_gp(msr, 0)
            s.expect('wrmsr %#x == GP by=intel_pmu_set_msr "WRMSR(%#x) <- 0 #GP"' % (msr, msr))
        else:
            s.wrmsr(msr, 0)
            s.expect('wrmsr %#x != GP by=kvm_set_msr_common "WRMSR(%#x) <- 0 no fault"'
                     % (msr, msr))
    s.write(name)


GPCTR_HEAD = """%(name)s - kvm-unit-tests x86/pmu.c (1da1819e) %(fn)s(), %(shape)s:
the instructions and branches events only (the cycle and cache events have no model).

measure_one(): __start_event() (counter <- 0, eventsel <- EN | OS | USR | event, or the
FIXED_CTR_CTRL field <- OS | USR; LVTPC), loop(), __stop_event() (disable, RDMSR counter).
%(loop)s
Asserted (verify_event(), count in [min, max]): %(ranges)s.
Deciding function: kvm_pmu_trigger_event() for the KVM-counted instructions (the enabling
WRMSR%(v1)s), perf for the native ones.
"""


def check_gp_counters(name, v, version, gp, fixed, fw, shape, fixed_fn=False):
    has_g = version > 1
    precise = has_g and v['vendor'] == 'intel'
    insn_n = LOOP_INSNS if has_g else LOOP_NATIVE + 2 + 2
    if has_g:
        loop = ('loop() is __precise_loop(): WRMSR GLOBAL_CTRL <- BIT(idx) (counts itself), %d\n'
                'native instructions (%d branches), WRMSR GLOBAL_CTRL <- 0: %d instructions,\n'
                '%d branches.' % (LOOP_NATIVE, LOOP_BR, LOOP_INSNS, LOOP_BR))
    else:
        loop = ('v1: loop() is __loop(), all native (%d instructions, %d branches); the eventsel\n'
                'and LVTPC writes count too (counters run from EN on): %d instructions.'
                % (LOOP_NATIVE + 2, LOOP_BR, insn_n))
    if fixed_fn:
        ranges = 'fixed 0 in [10 N, 10.2 N]'
    elif precise:
        ranges = ('Intel v2+ after adjust_events_range(): instructions == LOOP_INSNS = %d,\n'
                  'branches == LOOP_BRANCHES = %d' % (LOOP_INSNS, LOOP_BR))
    else:
        ranges = 'instructions in [10 N, 10.2 N], branches in [N, 1.1 N]'
    s = Scenario(GPCTR_HEAD % dict(name=os.path.basename(name), shape=shape, loop=loop,
                                   ranges=ranges, fn='check_fixed_counters' if fixed_fn
                                   else 'check_gp_counters',
                                   v1='' if has_g else ', eventsel and LVTPC writes'),
                 pmu_line(v, version, gp, fixed, 1 if fw else 0))
    if has_g:
        s.wrmsr(v['gctl'], 0)

    def measure(ctr, idx, start, stop):
        start()
        s.lvtpc(PMI_VECTOR)
        if has_g:
            s.wrmsr(v['gctl'], 1 << idx)
            s.native(LOOP_NATIVE, LOOP_BR)
            s.wrmsr(v['gctl'], 0)
        else:
            s.native(LOOP_NATIVE + 2, LOOP_BR)
        stop()
        s.rdmsr(ctr)

    if fixed_fn:
        def start():
            s.wrmsr(0x309, 0)
            s.rdmsr(0x38d)
            s.wrmsr(0x38d, 0x3)

        def stop():
            s.rdmsr(0x38d)
            s.wrmsr(0x38d, 0)
        measure(0x309, 32, start, stop)
        s.expect('rdmsr 0x309 >= %d by=kvm_pmu_trigger_event "fixed-0"' % (10 * N))
        s.expect('rdmsr 0x309 <= %d by=kvm_pmu_trigger_event "fixed-0"' % (10 * N + N // 5))
        s.write(name)
        return
    for event, label, lo, hi, want in (
            (v['insn'], 'instructions', 10 * N, 10 * N + N // 5, insn_n),
            (v['br'], 'branches', N, N + N // 10, LOOP_BR)):
        cfg = OS | USR | event
        for i in range(gp):
            ctr = gp_ctr(v, i, fw)
            measure(ctr, i, lambda: (s.wrmsr(ctr, 0), s.wrmsr(gp_sel(v, i), cfg | EN)),
                    lambda: s.wrmsr(gp_sel(v, i), cfg))
            if precise:
                s.expect('rdmsr %#x == %d by=kvm_pmu_trigger_event "%s-%d"'
                         % (ctr, want, label, i))
            else:
                s.expect('rdmsr %#x >= %d by=kvm_pmu_trigger_event "%s-%d"' % (ctr, lo, label, i))
                s.expect('rdmsr %#x <= %d by=kvm_pmu_trigger_event "%s-%d"' % (ctr, hi, label, i))
    s.write(name)


def main():
    kut = OUT + '/kvm-unit-tests/'
    check_emulated_instr(kut + 'check_emulated_instr.intel-v2.vtr', INTEL, 2, 8, fixed=3,
                         shape='Intel v2, 8 GP, legacy counter MSRs (first pass)')
    check_emulated_instr(kut + 'check_emulated_instr.intel-v2-fw.vtr', INTEL, 2, 8, fw=True,
                         fixed=3, shape='Intel v2, full-width writes pass (0x4c1+)')
    check_emulated_instr(kut + 'check_emulated_instr.intel-v5.vtr', INTEL, 5, 8, fixed=3,
                         shape='Intel v5 (CPUID says 5; KVM keys off version > 1)')
    check_emulated_instr(kut + 'check_emulated_instr.intel-v1.vtr', INTEL, 1, 8,
                         shape='Intel v1 (no GLOBAL_CTRL/STATUS)')
    check_emulated_instr(kut + 'check_emulated_instr.amd-v2.vtr', AMD2, 2, 6,
                         shape='AMD with PerfMonV2 (PERF_CTL/CTR at 0xc0010200, stride 2)')
    check_emulated_instr(kut + 'check_emulated_instr.amd-v1.vtr', AMDK7, 1, 4,
                         shape='AMD without PerfMonV2 (K7 MSRs 0xc0010000/4, "K7" pass)')
    check_rdpmc(kut + 'check_rdpmc.intel-v2.vtr', INTEL, 2, 8, 3, False,
                'Intel v2, 8 GP + 3 fixed, legacy counter MSRs')
    check_rdpmc(kut + 'check_rdpmc.intel-v2-fw.vtr', INTEL, 2, 8, 3, True,
                'Intel v2, full-width writes pass')
    check_rdpmc(kut + 'check_rdpmc.intel-v1.vtr', INTEL, 1, 8, 0, False,
                'Intel v1, 8 GP, no fixed counters')
    check_rdpmc(kut + 'check_rdpmc.amd-v2.vtr', AMD2, 2, 6, 0, True,
                'AMD with PerfMonV2, 6 GP (no fast-mode check: kut only skips on #GP)')
    check_invalid_rdpmc_gp(kut + 'check_invalid_rdpmc_gp.intel-v2.vtr', INTEL, 2, 8, 3,
                           'Intel v2',
                           'ECX 64 is no GP counter (type 0, index 64 >= 8):\n'
                           'intel_rdpmc_ecx_to_pmc() returns NULL, kvm_pmu_rdpmc() 1.')
    check_invalid_rdpmc_gp(kut + 'check_invalid_rdpmc_gp.amd-v2.vtr', AMD2, 2, 6, 0,
                           'AMD with PerfMonV2',
                           'amd_rdpmc_ecx_to_pmc() has counters 0..5\n'
                           '(ECX 64 >= nr_arch_gp_counters): NULL, kvm_pmu_rdpmc() 1.')
    check_gp_counters_write_width(kut + 'check_gp_counters_write_width.intel-v2-fw.vtr', 8,
                                  'Intel v2, 8 GP')
    for fn, base in ((check_running_counter_wrmsr, 'check_running_counter_wrmsr'),
                     (check_counter_overflow, 'check_counter_overflow')):
        fn(kut + base + '.intel-v2.vtr', INTEL, 2, 8, 3, False, 'Intel v2, legacy MSRs')
        fn(kut + base + '.intel-v2-fw.vtr', INTEL, 2, 8, 3, True,
           'Intel v2, full-width writes pass')
        fn(kut + base + '.intel-v1.vtr', INTEL, 1, 8, 0, False, 'Intel v1')
        fn(kut + base + '.amd-v2.vtr', AMD2, 2, 6, 0, False, 'AMD with PerfMonV2')
    check_gp_counters(kut + 'check_gp_counters.intel-v2.vtr', INTEL, 2, 8, 3, False,
                      'Intel v2, legacy MSRs')
    check_gp_counters(kut + 'check_gp_counters.intel-v2-fw.vtr', INTEL, 2, 8, 3, True,
                      'Intel v2, full-width writes pass')
    check_gp_counters(kut + 'check_gp_counters.intel-v1.vtr', INTEL, 1, 8, 0, False, 'Intel v1')
    check_gp_counters(kut + 'check_gp_counters.amd-v2.vtr', AMD2, 2, 6, 0, False,
                      'AMD with PerfMonV2 (ranges: no precise check on AMD)')
    check_gp_counters(kut + 'check_gp_counters.amd-v1.vtr', AMDK7, 1, 4, 0, False,
                      'AMD without PerfMonV2, K7 MSRs')
    check_gp_counters(kut + 'check_fixed_counters.intel-v2.vtr', INTEL, 2, 8, 3, False,
                      'Intel v2, fixed counter 0 (instructions)', fixed_fn=True)
    st = OUT + '/selftests/'
    for ev, ename in (('insn', 'instructions'), ('br', 'branches')):
        guest_test_arch_event(st + 'guest_test_arch_event-%s.intel-v2-fw.vtr' % ename, ev, 2,
                              8, 3, True, 'Intel v2, 8 GP, 3 fixed, full-width writes')
        guest_test_arch_event(st + 'guest_test_arch_event-%s.intel-v5.vtr' % ename, ev, 5, 8,
                              3, False, 'Intel v5 (CPUID version 5), legacy counter MSRs')
        guest_test_arch_event(st + 'guest_test_arch_event-%s.intel-v1.vtr' % ename, ev, 1, 8,
                              0, False, 'Intel v1 (no GLOBAL_CTRL, no fixed counters)')
    guest_test_gp_counters(st + 'guest_test_gp_counters.intel-v2-fw.vtr', 2, 8, True,
                           'Intel v2, 8 GP, full-width writes')
    guest_test_gp_counters(st + 'guest_test_gp_counters.intel-v2-gp2.vtr', 2, 2, False,
                           'Intel v2, 2 GP, legacy counter MSRs')
    guest_test_gp_counters(st + 'guest_test_gp_counters.intel-v2-gp0.vtr', 2, 0, False,
                           'Intel v2, no GP counters, legacy counter MSRs')


if __name__ == '__main__':
    main()
