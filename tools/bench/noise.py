#!/usr/bin/env python3
"""What SHMPI_MEMBARRIER costs the computations beside a job (make bench-noise).

A job whose ranks sleep and wake often (noise ring: barrier and PSCW in
turn) runs beside a fixed-work loop (noise victim, one rank of a job of its
own, pinned to the last CPU), once with SHMPI_MEMBARRIER=0 and once with =1,
alternating, REPS times.  With =1, a rank that goes to sleep calls
membarrier(2), which interrupts every CPU running a process registered for
it: the victim registers as a rank of another job with SHMPI_MEMBARRIER=1
does (victim "rank"), or not, as any other program (victim "plain", run
with SHMPI_MEMBARRIER=0).  Printed: the victim's median round alone and
beside each ring, its slowdown with =1 against =0, and the ring's barrier
and PSCW times in each mode.

Scenarios (this machine's CPUs 0 .. N-1, the victim on the last one):
  apart     2 ranks on the other CPUs (sharing CPU 0 if there is only one
            other), told they are not oversubscribed: the membarrier calls
            are the only way the ring reaches the victim's CPU
  beside    2 ranks bound to CPU 0 and the victim's CPU: the usual job of
            one rank per CPU, next to a computation
  over      4 ranks on all CPUs, oversubscribed: shmpi makes no call there
Each with the ranks sleeping at once when they wait (SHMPI_SPINS=0,
SHMPI_YIELDS=0: the most calls) and with the default spins (sleepy / spin).

Usage: noise.py --build BUILD [--reps N] [--seconds S]
Python 3 standard library only.
"""
import argparse
import itertools
import os
import re
import statistics
import subprocess
import sys


def run(cmd, env_extra, cpus=None):
    env = dict(os.environ)
    env.update(env_extra)
    if cpus is not None:
        cmd = ['taskset', '-c', cpus] + cmd
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def field(text, name):
    m = re.search(r'\b%s (\d+)' % name, text)
    if not m:
        raise RuntimeError('no %s in: %s' % (name, text.strip()))
    return float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--build', default='build')
    ap.add_argument('--reps', type=int, default=3)
    ap.add_argument('--seconds', type=float, default=3.0)
    args = ap.parse_args()
    shmrun = os.path.join(args.build, 'bin', 'shmrun')
    prog = os.path.join(args.build, 'bench', 'shmpi', 'noise')
    ncpu = os.cpu_count() or 1
    if ncpu < 2:
        print('noise: needs two CPUs or more')
        return 0
    vcpu = str(ncpu - 1)
    others = '0' if ncpu == 2 else '0-%d' % (ncpu - 2)
    secs = '%g' % args.seconds
    victim = [shmrun, '-n', '1', '--bind-to', 'none', prog, 'victim', secs]
    scenarios = {
        'apart': (['-n', '2', '--bind-to', 'none'], {'SHMPI_OVERSUBSCRIBED': 'no'}, others),
        'beside': (['-n', '2', '--bind-to', 'core'], {}, None),
        'over': (['-n', '4', '--bind-to', 'none'], {}, None),
    }
    waits = {'sleepy': {'SHMPI_SPINS': '0', 'SHMPI_YIELDS': '0'}, 'spin': {}}
    victims = {'rank': {'SHMPI_MEMBARRIER': '1'}, 'plain': {'SHMPI_MEMBARRIER': '0'}}
    alone = []
    results = {}
    for rep in range(args.reps):
        p = run(victim, {}, vcpu)
        alone.append(field(p.communicate()[0], 'median_ns'))
        for (sname, (sargs, senv, scpus)), (wname, wenv), (vname, venv) in \
                itertools.product(scenarios.items(), waits.items(), victims.items()):
            for mb in ('0', '1') if rep % 2 == 0 else ('1', '0'):
                env = dict(senv, **wenv, SHMPI_MEMBARRIER=mb)
                ring = run([shmrun] + sargs + [prog, 'ring', '%g' % (args.seconds + 1)],
                           env, scpus)
                v = run(victim, venv, vcpu)
                vout = v.communicate()[0]
                rout = ring.communicate()[0]
                r = results.setdefault((sname, wname, vname, mb), {'v': [], 'b': [], 'p': []})
                r['v'].append(field(vout, 'median_ns'))
                r['b'].append(field(rout, 'barrier_ns'))
                r['p'].append(field(rout, 'pscw_ns'))
    base = statistics.median(alone)
    print('victim alone: %.0f ns a round (median of %d runs)' % (base, len(alone)))
    print('%-7s %-6s %-6s %-3s %12s %10s %12s %12s' % (
        'ring', 'waits', 'victim', 'MB', 'victim ns', 'vs MB=0', 'barrier ns', 'pscw ns'))
    worst = {}
    for sname in scenarios:
        for wname in waits:
            for vname in victims:
                v0 = statistics.median(results[(sname, wname, vname, '0')]['v'])
                for mb in ('0', '1'):
                    r = results[(sname, wname, vname, mb)]
                    v = statistics.median(r['v'])
                    slow = v / v0 - 1
                    if mb == '1':
                        worst[vname] = max(worst.get(vname, slow), slow)
                    print('%-7s %-6s %-6s %-3s %12.0f %+9.1f%% %12.0f %12.0f' % (
                        sname, wname, vname, mb, v, 100 * slow,
                        statistics.median(r['b']), statistics.median(r['p'])))
    for vname in victims:
        print('worst slowdown of a %s victim with SHMPI_MEMBARRIER=1: %+.1f%%' % (
            vname, 100 * worst[vname]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
