"""The pipeline of pipeline.cpp in NumPy, for the same table: plain NumPy
(a new array per step) and NumPy with out= (every step in X's storage).
Prints: variant, peak RSS above the process before X existed (MiB), X (MiB), seconds, r[0]."""
import sys
import time

import numpy as np


def peak_mib():  # VmHWM: ru_maxrss would include the parent's peak from before exec
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


variant = sys.argv[1] if len(sys.argv) > 1 else "numpy"
n = 4096
before = peak_mib()
x = np.empty((n, n), dtype=np.float32)
row = (np.arange(n, dtype=np.float32))
for i in range(n):  # row by row: no temporary as large as x
    x[i] = ((row + np.float32(i * n)) % np.float32(97)) * np.float32(0.01)
inputs = peak_mib() - before
t0 = time.perf_counter()
if variant == "numpy":
    y = x * np.float32(0.5) + np.float32(1)
    e = np.exp(y - y.max(axis=1, keepdims=True))
    s = e / e.sum(axis=1, keepdims=True)
    r = (s * np.float32(2) - np.float32(1)).sum(axis=1)
elif variant == "numpy_out":
    np.multiply(x, np.float32(0.5), out=x)
    np.add(x, np.float32(1), out=x)
    np.subtract(x, x.max(axis=1, keepdims=True), out=x)
    np.exp(x, out=x)
    np.divide(x, x.sum(axis=1, keepdims=True), out=x)
    np.multiply(x, np.float32(2), out=x)
    np.subtract(x, np.float32(1), out=x)
    r = x.sum(axis=1)
else:
    sys.exit("variant: numpy | numpy_out")
seconds = time.perf_counter() - t0
print(f"{variant} {peak_mib() - before:.1f} {inputs:.1f} {seconds:.3f} {float(r[0]):g}")
