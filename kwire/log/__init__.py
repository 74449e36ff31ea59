"""kwire.log: Kafka's on-disk log -- segments, indexes, recovery, retention, producer state,
compaction.

Synchronous file I/O, called from the broker's event loop; time is always
passed in (``now_ms``). Entry points: ``LogManager`` (all partitions of the
broker) and ``PartitionLog`` (one partition). The log cleaner
(``cleaner.py``) does its file work in a worker process and swaps cleaned
segments in on the loop. See each module's docstring.
"""

from .config import LogConfig
from .manager import AllLogDirsOffline, LogManager
from .partition_log import READ_COMMITTED, READ_UNCOMMITTED, AppendResult, PartitionLog, ReadResult
from .region import FileRegion
from .validate import AppendOrigin

__all__ = [
    "AllLogDirsOffline",
    "AppendOrigin",
    "AppendResult",
    "FileRegion",
    "LogConfig",
    "LogManager",
    "PartitionLog",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "ReadResult",
]
