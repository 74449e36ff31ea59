"""kwire.records.crc: the crc32c package's C function, loaded without the package's __init__."""

import subprocess
import sys

from kwire.records.crc import crc32c


def test_check_value_and_agreement_with_the_package():
    import crc32c as package

    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value (RFC 3720, B.4)
    data = bytes(range(256)) * 41
    assert crc32c(data) == package.crc32c(data)
    assert crc32c(data[100:], crc32c(data[:100])) == crc32c(data)  # continues a running value


def test_loading_it_does_not_run_the_package_init():
    code = ("import sys; before = set(sys.modules); import kwire.records.crc as c; "
            "print(c.crc32c(b'x'), 'crc32c' in sys.modules, 'importlib.metadata' in set(sys.modules) - before)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split()[1:] == ["False", "False"], out
