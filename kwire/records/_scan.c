/* kwire.records._scan: walk the records section of a v2 batch without building objects.
 *
 * The compiled twin of kwire/records/scan.py (``_py_scan_records``); both must
 * accept and reject exactly the same inputs and return the same tuple, which
 * tests/unit/test_records_validate.py checks on the same inputs. Read
 * scan.py's docstring for the contract and the record layout. This file only
 * walks already-decompressed bytes: it never allocates per record, never
 * decompresses and, but for stamp_batch and a stamping check_client_batch, never writes to
 * the data.
 *
 *   scan_records(data, count, layout=None) -> (min_ts_delta, max_ts_delta, null_keys)
 *   check_batch(data, pos, header_type) -> (header, min_ts_delta, max_ts_delta, null_keys) | None
 *     (one uncompressed batch's header, CRC and records in one call: the produce fast path;
 *     twin: scan.py's py_check_batch)
 *   check_client_batch(data, header_type, lower, upper, max_size, compacted[, base_offset,
 *                      leader_epoch]) -> header | None
 *     (a client's one-batch Produce payload with every client check of the validator in one
 *     call, and with the last two arguments stamped as stamp_batch does when it passes;
 *     twin: scan.py's py_check_client_batch)
 *   stamp_batch(data, pos, base_offset, leader_epoch, header_type) -> header
 *     (the leader's base offset and epoch written into a batch, its header read back; the one
 *     function here that writes to ``data``; twin: scan.py's py_stamp_batch)
 *   schema_ids(data, count, field) -> (ids, unframed)
 *     (the distinct schema-registry ids at the head of every record's key (field 0) or value
 *     (field 1), sorted, and how many non-null ones are not in the wire format: produce-time
 *     schema validation's one call per batch; twin: scan.py's py_schema_ids)
 *   produce_frame(frame, uuids, read_uuid) -> (version, correlation_id, client_id, acks,
 *                                              timeout_ms, topic, partition, records) | None
 *     (a single-partition Produce frame read in one call, the frame itself never written;
 *     twin: kwire.protocol.produce_single.decode_frame, chosen by kwire.server.connection)
 *
 * ``data`` is any contiguous buffer; ``layout`` is None or a writable buffer
 * of at least 6 * count C ints (array('i')) filled per record with
 * (start, end, key_pos, key_len, value_pos, value_len), -1 lengths for null.
 * Malformed framing raises kwire.records.errors.CorruptRecordError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static PyObject *CorruptRecordError = NULL;

enum { V_OK = 0, V_EOF = 1, V_LONG = 2, V_RANGE = 3 };

/* Zigzag varint of at most max_bytes (5: int32, 10: int64) in buf[*pos:end]. */
static inline int
read_varint(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, int max_bytes, int64_t *out)
{
    Py_ssize_t p = *pos;
    if (p < end && buf[p] < 0x80) {
        uint8_t b = buf[p];
        *out = (int64_t)(b >> 1) ^ -(int64_t)(b & 1);
        *pos = p + 1;
        return V_OK;
    }
    uint64_t raw = 0;
    int shift = 0;
    Py_ssize_t limit = end - p < max_bytes ? end : p + max_bytes;
    while (p < limit) {
        uint8_t b = buf[p++];
        uint64_t bits = (uint64_t)(b & 0x7F);
        if (shift == 63 && bits > 1)
            return V_RANGE; /* would need more than 64 bits: outside int64 */
        raw |= bits << shift;
        if (b < 0x80) {
            int64_t v = (int64_t)(raw >> 1) ^ -(int64_t)(raw & 1);
            if (max_bytes == 5 && (v < INT32_MIN || v > INT32_MAX))
                return V_RANGE;
            *out = v;
            *pos = p;
            return V_OK;
        }
        shift += 7;
    }
    return (p - *pos < max_bytes) ? V_EOF : V_LONG;
}

static PyObject *
fail(Py_ssize_t index, const char *what, int code)
{
    const char *why = code == V_EOF ? "runs past its end" : code == V_LONG ? "is too long" : "is out of range";
    PyErr_Format(CorruptRecordError, "record %zd: %s varint %s", index, what, why);
    return NULL;
}

/* UTF-8 check for header keys, as strict as Python's bytes.decode("utf-8"). */
static int
utf8_ok(const uint8_t *s, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n && s[i] < 0x80)
        i++;
    if (i == n)
        return 1;
    PyObject *u = PyUnicode_DecodeUTF8((const char *)s, n, "strict");
    if (u == NULL) {
        PyErr_Clear();
        return 0;
    }
    Py_DECREF(u);
    return 1;
}

/* Walk ``count`` records of d[0:end]: 0 with the timestamp-delta bounds and null keys set,
 * or -1 with CorruptRecordError set. ``out``: NULL or 6 * count ints of layout. */
static int
walk(const uint8_t *d, const Py_ssize_t end, Py_ssize_t count, int *out,
     int64_t *min_out, int64_t *max_out, Py_ssize_t *null_out)
{
    Py_ssize_t pos = 0;
    int64_t v, min_ts = 0, max_ts = 0;
    Py_ssize_t null_keys = 0;
    int rc;
    Py_ssize_t i;

    if (count < 0) {
        PyErr_Format(CorruptRecordError, "negative records_count %zd", count);
        return -1;
    }
    for (i = 0; i < count; i++) {
        if (pos >= end) {
            PyErr_Format(CorruptRecordError, "records section ends after %zd of %zd records", i, count);
            return -1;
        }
        Py_ssize_t start = pos;
        if ((rc = read_varint(d, &pos, end, 5, &v)) != V_OK) { fail(i, "length", rc); return -1; }
        Py_ssize_t rend = pos + (Py_ssize_t)v;
        if (v < 1 || v > end - pos) {
            PyErr_Format(CorruptRecordError, "record %zd: length %lld does not fit", i, (long long)v);
            return -1;
        }
        pos++; /* attributes: unused in v2, not checked (as Kafka) */
        if ((rc = read_varint(d, &pos, rend, 10, &v)) != V_OK) { fail(i, "timestamp delta", rc); return -1; }
        if (i == 0 || v < min_ts) min_ts = v;
        if (i == 0 || v > max_ts) max_ts = v;
        if ((rc = read_varint(d, &pos, rend, 5, &v)) != V_OK) { fail(i, "offset delta", rc); return -1; }
        if (v != i) {
            PyErr_Format(CorruptRecordError, "record %zd: offset delta %lld, expected %zd",
                         i, (long long)v, i);
            return -1;
        }
        Py_ssize_t key_pos, val_pos;
        int64_t key_len, val_len;
        if ((rc = read_varint(d, &pos, rend, 5, &key_len)) != V_OK) { fail(i, "key length", rc); return -1; }
        key_pos = pos;
        if (key_len < -1 || key_len > rend - pos) {
            PyErr_Format(CorruptRecordError, "record %zd: key length %lld does not fit", i, (long long)key_len);
            return -1;
        }
        if (key_len < 0)
            null_keys++;
        else
            pos += (Py_ssize_t)key_len;
        if ((rc = read_varint(d, &pos, rend, 5, &val_len)) != V_OK) { fail(i, "value length", rc); return -1; }
        val_pos = pos;
        if (val_len < -1 || val_len > rend - pos) {
            PyErr_Format(CorruptRecordError, "record %zd: value length %lld does not fit", i, (long long)val_len);
            return -1;
        }
        if (val_len > 0)
            pos += (Py_ssize_t)val_len;
        if ((rc = read_varint(d, &pos, rend, 5, &v)) != V_OK) { fail(i, "header count", rc); return -1; }
        if (v < 0) {
            PyErr_Format(CorruptRecordError, "record %zd: negative header count %lld", i, (long long)v);
            return -1;
        }
        for (int64_t h = v; h > 0; h--) {
            int64_t n;
            if ((rc = read_varint(d, &pos, rend, 5, &n)) != V_OK) { fail(i, "header key length", rc); return -1; }
            if (n < 0 || n > rend - pos) {
                PyErr_Format(CorruptRecordError, "record %zd: header key length %lld does not fit",
                             i, (long long)n);
                return -1;
            }
            if (!utf8_ok(d + pos, (Py_ssize_t)n)) {
                PyErr_Format(CorruptRecordError, "record %zd: header key is not UTF-8", i);
                return -1;
            }
            pos += (Py_ssize_t)n;
            if ((rc = read_varint(d, &pos, rend, 5, &n)) != V_OK) { fail(i, "header value length", rc); return -1; }
            if (n < -1 || n > rend - pos) {
                PyErr_Format(CorruptRecordError, "record %zd: header value length %lld does not fit",
                             i, (long long)n);
                return -1;
            }
            if (n > 0)
                pos += (Py_ssize_t)n;
        }
        if (pos != rend) {
            PyErr_Format(CorruptRecordError, "record %zd: %zd unread bytes inside its length", i, rend - pos);
            return -1;
        }
        if (out) {
            int *r = out + 6 * i;
            r[0] = (int)start; r[1] = (int)rend;
            r[2] = (int)key_pos; r[3] = (int)key_len;
            r[4] = (int)val_pos; r[5] = (int)val_len;
        }
    }
    if (pos != end) {
        PyErr_Format(CorruptRecordError, "%zd bytes left after %zd records", end - pos, count);
        return -1;
    }
    *min_out = min_ts;
    *max_out = max_ts;
    *null_out = null_keys;
    return 0;
}

static PyObject *
scan_records(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {"data", "count", "layout", NULL};
    Py_buffer view, lay;
    Py_ssize_t count;
    PyObject *layout = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*n|O:scan_records", kwlist, &view, &count, &layout))
        return NULL;
    int *out = NULL;
    int have_layout = layout != Py_None;
    if (have_layout) {
        if (PyObject_GetBuffer(layout, &lay, PyBUF_WRITABLE | PyBUF_FORMAT) < 0) {
            PyBuffer_Release(&view);
            return NULL;
        }
        if (lay.itemsize != sizeof(int) || (lay.format && strcmp(lay.format, "i") != 0) ||
            count < 0 || lay.len / (Py_ssize_t)sizeof(int) < 6 * count || view.len > INT32_MAX) {
            PyBuffer_Release(&lay);
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "layout must be a writable array('i') of 6 * count ints "
                                              "(and data under 2 GiB)");
            return NULL;
        }
        out = (int *)lay.buf;
    }
    int64_t min_ts, max_ts;
    Py_ssize_t null_keys;
    PyObject *result = NULL;
    if (walk((const uint8_t *)view.buf, view.len, count, out, &min_ts, &max_ts, &null_keys) == 0)
        result = Py_BuildValue("(LLn)", (long long)min_ts, (long long)max_ts, null_keys);
    if (have_layout)
        PyBuffer_Release(&lay);
    PyBuffer_Release(&view);
    return result;
}

/* Big-endian readers for the batch header. */
static inline int64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return (int64_t)v;
}
static inline int32_t be32(const uint8_t *p)
{
    return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
}
static inline int16_t be16(const uint8_t *p) { return (int16_t)(((uint16_t)p[0] << 8) | p[1]); }

static int
cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* schema_ids(data, count, field) -> (ids, unframed)
 *
 * Walks the records as scan_records does (same CorruptRecordError on bad framing) and looks at
 * one field of each, the key (field 0) or the value (field 1). A null field is skipped (a
 * tombstone or a keyless record); a field of 5 bytes or more starting with the magic byte 0 is in
 * the schema registry's wire format and its next 4 bytes are a big-endian schema id; any other
 * non-null field counts as unframed.
 *
 *   +-------+----------------------+---------------
 *   | 0x00  | schema id (uint32 BE) | payload ...
 *   +-------+----------------------+---------------
 *
 * ``ids`` is the tuple of distinct ids, ascending. Nothing is allocated per record: one layout
 * buffer and one id buffer per call, sorted only when the ids differ. */
static PyObject *
schema_ids(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t count;
    int field;
    if (!PyArg_ParseTuple(args, "y*ni:schema_ids", &view, &count, &field))
        return NULL;
    if ((field != 0 && field != 1) || view.len > INT32_MAX) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "field must be 0 (key) or 1 (value), data under 2 GiB");
        return NULL;
    }
    int *lay = NULL;
    uint32_t *ids = NULL;
    PyObject *result = NULL, *tuple = NULL;
    Py_ssize_t n = count > 0 ? count : 0, n_ids = 0, unframed = 0;
    lay = PyMem_Malloc(sizeof(int) * 6 * (size_t)(n ? n : 1));
    ids = PyMem_Malloc(sizeof(uint32_t) * (size_t)(n ? n : 1));
    if (lay == NULL || ids == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const uint8_t *d = (const uint8_t *)view.buf;
    int64_t min_ts, max_ts;
    Py_ssize_t null_keys;
    if (walk(d, view.len, count, lay, &min_ts, &max_ts, &null_keys) < 0)
        goto done;
    int sorted = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int pos = lay[6 * i + 2 + 2 * field], len = lay[6 * i + 3 + 2 * field];
        if (len < 0)
            continue;
        if (len < 5 || d[pos] != 0) {
            unframed++;
            continue;
        }
        uint32_t id = (uint32_t)be32(d + pos + 1);
        if (n_ids && ids[n_ids - 1] == id)
            continue; /* the common case: every record of the batch has one id */
        if (n_ids && ids[n_ids - 1] > id)
            sorted = 0;
        ids[n_ids++] = id;
    }
    if (!sorted)
        qsort(ids, (size_t)n_ids, sizeof(uint32_t), cmp_u32);
    Py_ssize_t distinct = 0;
    for (Py_ssize_t i = 0; i < n_ids; i++)
        if (i == 0 || ids[i] != ids[distinct - 1])
            ids[distinct++] = ids[i];
    tuple = PyTuple_New(distinct);
    if (tuple == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < distinct; i++) {
        PyObject *v = PyLong_FromUnsignedLong(ids[i]);
        if (v == NULL)
            goto done;
        PyTuple_SET_ITEM(tuple, i, v);
    }
    result = Py_BuildValue("(On)", tuple, unframed);
done:
    Py_XDECREF(tuple);
    PyMem_Free(lay);
    PyMem_Free(ids);
    PyBuffer_Release(&view);
    return result;
}


static PyObject *crc32c_fn = NULL; /* kwire.records.crc.crc32c, looked up at import */

/* The ``ht`` (BatchHeader, a tuple subclass) of the 13 header fields of the batch at ``b``. */
static PyObject *
new_header(PyTypeObject *ht, const uint8_t *b)
{
    PyObject *h = ht->tp_alloc(ht, 13);
    if (h == NULL)
        return NULL;
    PyObject *fields[13] = {
        PyLong_FromLongLong(be64(b)), PyLong_FromLong(be32(b + 8)), PyLong_FromLong(be32(b + 12)),
        PyLong_FromLong(b[16]), PyLong_FromUnsignedLong((uint32_t)be32(b + 17)),
        PyLong_FromLong(be16(b + 21)), PyLong_FromLong(be32(b + 23)), PyLong_FromLongLong(be64(b + 27)),
        PyLong_FromLongLong(be64(b + 35)), PyLong_FromLongLong(be64(b + 43)),
        PyLong_FromLong(be16(b + 51)), PyLong_FromLong(be32(b + 53)), PyLong_FromLong(be32(b + 57)),
    };
    int ok = 1;
    for (int i = 0; i < 13; i++) {
        if (fields[i] == NULL)
            ok = 0;
        PyTuple_SET_ITEM(h, i, fields[i] ? fields[i] : Py_NewRef(Py_None));
    }
    if (!ok) {
        Py_DECREF(h);
        return NULL;
    }
    return h;
}

/* The checks both check functions share, on the batch at ``b`` with ``left`` bytes from it: a
 * whole 61-byte header, magic 2, batch_length >= 49 that fits, no compression, a valid CRC-32C
 * and records that scan cleanly. 1 (the scan's figures set), 0 (not such a batch), -1 (an
 * exception: only from the CRC call). */
static int
plain_batch(const uint8_t *b, Py_ssize_t left, Py_ssize_t *size_out, int64_t *min_ts,
            int64_t *max_ts, Py_ssize_t *null_keys)
{
    if (left < 61 || b[16] != 2)
        return 0;
    int32_t batch_length = be32(b + 8);
    if (batch_length < 49 || (Py_ssize_t)batch_length + 12 > left)
        return 0;
    Py_ssize_t size = (Py_ssize_t)batch_length + 12;
    if (be16(b + 21) & 0x07)
        return 0; /* compressed: the caller decompresses */
    PyObject *region = PyMemoryView_FromMemory((char *)(b + 21), size - 21, PyBUF_READ);
    if (region == NULL)
        return -1;
    PyObject *crc = PyObject_CallOneArg(crc32c_fn, region);
    Py_DECREF(region);
    if (crc == NULL)
        return -1;
    unsigned long computed = PyLong_AsUnsignedLong(crc);
    Py_DECREF(crc);
    if (computed == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (computed != (uint32_t)be32(b + 17))
        return 0;
    if (walk(b + 61, size - 61, be32(b + 57), NULL, min_ts, max_ts, null_keys) < 0) {
        PyErr_Clear();
        return 0;
    }
    *size_out = size;
    return 1;
}

/* check_batch(data, pos, header_type) -> (header, min_ts_delta, max_ts_delta, null_keys) | None
 *
 * The fast path of the produce validator for one batch at data[pos:]: it answers only when the
 * batch passes ``plain_batch``. ``header`` is a ``header_type`` (BatchHeader, a tuple subclass)
 * of the 13 header fields. Anything else answers None, raising nothing: the caller then runs its
 * full checks, which name the fault. */
static PyObject *
check_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyType_Check(args[2]) || !PyType_IsSubtype((PyTypeObject *)args[2], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "check_batch(data, pos, header_type)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size;
    int64_t min_ts, max_ts;
    Py_ssize_t null_keys;
    int ok = pos < 0 ? 0 : plain_batch((const uint8_t *)view.buf + pos, view.len - pos, &size,
                                        &min_ts, &max_ts, &null_keys);
    if (ok == 0) {
        result = Py_NewRef(Py_None);
    } else if (ok > 0) {
        PyObject *h = new_header((PyTypeObject *)args[2], (const uint8_t *)view.buf + pos);
        if (h != NULL)
            result = Py_BuildValue("(NLLn)", h, (long long)min_ts, (long long)max_ts, null_keys);
    }
    PyBuffer_Release(&view);
    return result;
}

/* The leader's stamp of a batch at b: base offset (int64 at 0) and partition leader epoch (int32
 * at 12), big-endian; the CRC does not cover them. */
static inline void
write_stamp(uint8_t *b, long long base, long epoch)
{
    uint64_t v = (uint64_t)base;
    for (int i = 7; i >= 0; i--, v >>= 8)
        b[i] = (uint8_t)v;
    uint32_t e = (uint32_t)(int32_t)epoch;
    for (int i = 15; i >= 12; i--, e >>= 8)
        b[i] = (uint8_t)e;
}

/* check_client_batch(data, header_type, lower, upper, max_size, compacted[, base_offset,
 *                    leader_epoch]) -> header | None
 *
 * A client's whole Produce payload for one partition, accepted in one call: the header (a
 * ``header_type``) when ``data`` is exactly one batch that passes ``plain_batch`` and every
 * check ``kwire.log.validate.validate_records`` makes of a client batch: size <= ``max_size``,
 * base offset 0, records_count > 0 and equal to last_offset_delta + 1, CreateTime, not a control
 * batch, not transactional (the caller must ask the coordinator), a producer id < 0 or a base
 * sequence >= 0, every record's timestamp (base timestamp + delta) and the header's max timestamp
 * (unless -1) within [lower, upper], no null key when ``compacted``. None for anything else (the
 * caller's full checks then decide, and name the fault), raising nothing but a TypeError for
 * bad arguments. With ``base_offset`` and ``leader_epoch`` (``data`` then must be writable), an
 * accepted batch is also stamped as ``stamp_batch`` stamps it and the header returned is the
 * stamped one: the leader's check and stamp in one call; a refused one is left as it was.
 * Twin: scan.py's py_check_client_batch. */
static PyObject *
check_client_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if ((nargs != 6 && nargs != 8) || !PyType_Check(args[1]) ||
            !PyType_IsSubtype((PyTypeObject *)args[1], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError,
                        "check_client_batch(data, header_type, lower, upper, max_size, compacted"
                        "[, base_offset, leader_epoch])");
        return NULL;
    }
    const int stamp = nargs == 8;
    long long stamp_base = 0;
    long stamp_epoch = 0;
    if (stamp) {
        stamp_base = PyLong_AsLongLong(args[6]);
        if (stamp_base == -1 && PyErr_Occurred())
            return NULL;
        stamp_epoch = PyLong_AsLong(args[7]);
        if (stamp_epoch == -1 && PyErr_Occurred())
            return NULL;
        if (stamp_epoch < INT32_MIN || stamp_epoch > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "leader_epoch does not fit an int32");
            return NULL;
        }
    }
    long long lower = PyLong_AsLongLong(args[2]);
    if (lower == -1 && PyErr_Occurred())
        return NULL;
    long long upper = PyLong_AsLongLong(args[3]);
    if (upper == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t max_size = PyLong_AsSsize_t(args[4]);
    if (max_size == -1 && PyErr_Occurred())
        return NULL;
    int compacted = PyObject_IsTrue(args[5]);
    if (compacted < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, stamp ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0)
        return NULL;
    const uint8_t *b = (const uint8_t *)view.buf;
    PyObject *result = NULL;
    Py_ssize_t size;
    int64_t min_ts, max_ts;
    Py_ssize_t null_keys;
    int ok = plain_batch(b, view.len, &size, &min_ts, &max_ts, &null_keys);
    if (ok < 0)
        goto done;
    if (ok == 0 || size != view.len || size > max_size)
        goto none;
    int16_t attributes = be16(b + 21);
    int32_t last_delta = be32(b + 23), count = be32(b + 57);
    int64_t base_ts = be64(b + 27), header_max_ts = be64(b + 35), producer_id = be64(b + 43);
    if (attributes & 0x38) /* LogAppendTime (0x08), transactional (0x10), control (0x20) */
        goto none;
    if (be64(b) != 0 || count <= 0 || last_delta != count - 1)
        goto none;
    if (producer_id >= 0 && be32(b + 53) < 0)
        goto none;
    if (compacted && null_keys)
        goto none;
    int64_t first, last;
    if (__builtin_add_overflow(base_ts, min_ts, &first) || __builtin_add_overflow(base_ts, max_ts, &last))
        goto none;
    if (first < lower || last > upper)
        goto none;
    if (header_max_ts != -1 && (header_max_ts < lower || header_max_ts > upper))
        goto none;
    if (stamp) /* accepted: the leader's offset and epoch, as stamp_batch writes them */
        write_stamp((uint8_t *)view.buf, stamp_base, stamp_epoch);
    result = new_header((PyTypeObject *)args[1], b);
    goto done;
none:
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&view);
    return result;
}

/* stamp_batch(data, pos, base_offset, leader_epoch, header_type) -> header
 *
 * The leader's in-place stamp of a batch it appends: base offset (int64 at pos) and partition
 * leader epoch (int32 at pos + 12) written big-endian into ``data`` (a writable buffer), then
 * the batch's header read back as a ``header_type``, in one call (the segment caches it). The
 * CRC does not cover these fields. ValueError when ``data`` holds no 61-byte header at
 * ``pos``; OverflowError for a value that does not fit. Twin: scan.py's py_stamp_batch. */
static PyObject *
stamp_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyType_Check(args[4]) || !PyType_IsSubtype((PyTypeObject *)args[4], &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "stamp_batch(data, pos, base_offset, leader_epoch, header_type)");
        return NULL;
    }
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    long long base = PyLong_AsLongLong(args[2]);
    if (base == -1 && PyErr_Occurred())
        return NULL;
    long epoch = PyLong_AsLong(args[3]);
    if (epoch == -1 && PyErr_Occurred())
        return NULL;
    if (epoch < INT32_MIN || epoch > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "leader_epoch does not fit an int32");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_WRITABLE) < 0)
        return NULL;
    PyObject *result = NULL;
    if (pos < 0 || view.len - pos < 61) {
        PyErr_SetString(PyExc_ValueError, "no 61-byte batch header at pos");
    } else {
        uint8_t *b = (uint8_t *)view.buf + pos;
        write_stamp(b, base, epoch);
        result = new_header((PyTypeObject *)args[4], b);
    }
    PyBuffer_Release(&view);
    return result;
}

/* Unsigned varint of at most 5 bytes (the protocol's uvarint, as primitives.read_uvarint: the
 * value is not limited to 32 bits) at b[*pos:len]; 0 when it runs past the end or is longer. */
static inline int
read_uvarint5(const uint8_t *b, Py_ssize_t *pos, Py_ssize_t len, uint64_t *out)
{
    Py_ssize_t p = *pos;
    uint64_t v = 0;
    for (int shift = 0; shift <= 28; shift += 7) {
        if (p >= len)
            return 0;
        uint8_t c = b[p++];
        v |= (uint64_t)(c & 0x7F) << shift;
        if (c < 0x80) {
            *out = v;
            *pos = p;
            return 1;
        }
    }
    return 0;
}

/* A strict UTF-8 str of b[p:p+n], or NULL with no exception set when it is not valid UTF-8. */
static PyObject *
utf8_or_null(const uint8_t *b, Py_ssize_t n)
{
    PyObject *s = PyUnicode_DecodeUTF8((const char *)b, n, "strict");
    if (s == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        PyErr_Clear();
    return s;
}

/* produce_frame(frame, uuids, read_uuid)
 *   -> (version, correlation_id, client_id, acks, timeout_ms, topic, partition, records) | None
 *
 * A whole Produce frame (no size prefix) of the single-partition shape, read in one call: the
 * compiled twin of kwire.protocol.produce_single.decode_frame, with the same result for every
 * input (tests/unit/test_produce_single.py compares them). ``topic`` is the name (v3-12) or,
 * from v13, the uuid.UUID: looked up in ``uuids`` (primitives' bytes -> UUID cache) by its 16
 * bytes, or made by ``read_uuid(view, pos)`` when it is not there. ``records`` is a memoryview
 * slice of ``frame``. None for anything else (not Produce, a version outside 3-13, header
 * tagged fields, a transactional id, not one topic and one partition, null records, body
 * tagged fields, truncated or malformed bytes, invalid UTF-8). */
static PyObject *
produce_frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "produce_frame(frame, uuids, read_uuid)");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const uint8_t *b = (const uint8_t *)view.buf;
    const Py_ssize_t len = view.len;
    PyObject *result = NULL, *client = NULL, *topic = NULL, *whole = NULL, *records = NULL;
    Py_ssize_t p = 10, rstart;
    uint64_t n;
    int16_t acks;
    int32_t timeout, partition;
    if (len < 10)
        goto none;
    const int16_t api_key = be16(b), version = be16(b + 2);
    const int32_t correlation_id = be32(b + 4);
    if (api_key != 0 || version < 3 || version > 13)
        goto none;
    const int16_t client_len = be16(b + 8);
    if (client_len < 0) {
        client = Py_NewRef(Py_None);
    } else {
        if (client_len > len - p)
            goto none;
        if ((client = utf8_or_null(b + p, client_len)) == NULL)
            goto error_or_none;
        p += client_len;
    }
    if (version >= 9) {
        /* header tagged fields, transactional id (compact, null is 0), acks, timeout, one topic */
        if (len - p < 9 || b[p] || b[p + 1])
            goto none;
        acks = be16(b + p + 2);
        timeout = be32(b + p + 4);
        p += 8;
        if (b[p++] != 2)
            goto none;
        if (version >= 13) {
            if (len - p < 16)
                goto none;
            PyObject *raw = PyBytes_FromStringAndSize((const char *)b + p, 16);
            if (raw == NULL)
                goto done;
            topic = PyDict_GetItemWithError(args[1], raw); /* borrowed */
            Py_DECREF(raw);
            if (topic != NULL) {
                Py_INCREF(topic);
            } else {
                if (PyErr_Occurred())
                    goto done;
                /* not cached: the Python reader makes (and caches) it */
                if ((whole = PyMemoryView_FromObject(args[0])) == NULL)
                    goto done;
                PyObject *at = PyLong_FromSsize_t(p);
                if (at == NULL)
                    goto done;
                PyObject *pair = PyObject_CallFunctionObjArgs(args[2], whole, at, NULL);
                Py_DECREF(at);
                if (pair == NULL)
                    goto done;
                if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                    Py_DECREF(pair);
                    PyErr_SetString(PyExc_TypeError, "read_uuid must return (uuid, end)");
                    goto done;
                }
                topic = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
                Py_DECREF(pair);
            }
            p += 16;
        } else {
            if (!read_uvarint5(b, &p, len, &n) || n == 0 || n - 1 > (uint64_t)(len - p))
                goto none;
            if ((topic = utf8_or_null(b + p, (Py_ssize_t)(n - 1))) == NULL)
                goto error_or_none;
            p += (Py_ssize_t)(n - 1);
        }
        if (len - p < 5 || b[p] != 2)
            goto none;
        partition = be32(b + p + 1);
        p += 5;
        if (!read_uvarint5(b, &p, len, &n) || n == 0 || n - 1 > (uint64_t)(len - p))
            goto none;
        rstart = p;
        p += (Py_ssize_t)(n - 1);
        /* the partition's, the topic's and the request's tagged fields: none */
        if (len - p < 3 || b[p] || b[p + 1] || b[p + 2])
            goto none;
    } else {
        /* transactional id (null: -1), acks, timeout, one topic */
        if (len - p < 12 || be16(b + p) != -1 || be32(b + p + 8) != 1)
            goto none;
        acks = be16(b + p + 2);
        timeout = be32(b + p + 4);
        p += 12;
        if (len - p < 2)
            goto none;
        const int16_t name_len = be16(b + p);
        p += 2;
        if (name_len < 0 || name_len > len - p)
            goto none;
        if ((topic = utf8_or_null(b + p, name_len)) == NULL)
            goto error_or_none;
        p += name_len;
        if (len - p < 12 || be32(b + p) != 1)  /* one partition: index, records length */
            goto none;
        partition = be32(b + p + 4);
        const int32_t size = be32(b + p + 8);
        p += 12;
        if (size < 0 || size > len - p)
            goto none;
        rstart = p;
        n = (uint64_t)size + 1;
    }
    if (whole == NULL && (whole = PyMemoryView_FromObject(args[0])) == NULL)
        goto done;
    if ((records = PySequence_GetSlice(whole, rstart, rstart + (Py_ssize_t)(n - 1))) == NULL)
        goto done;
    result = Py_BuildValue("(hiNhiNiN)", version, correlation_id, client, acks, timeout, topic,
                           partition, records);
    client = topic = records = NULL; /* stolen by N, also on failure */
    goto done;
error_or_none:
    if (PyErr_Occurred())
        goto done;
none:
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(client);
    Py_XDECREF(topic);
    Py_XDECREF(records);
    Py_XDECREF(whole);
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef methods[] = {
    {"scan_records", (PyCFunction)(void (*)(void))scan_records, METH_VARARGS | METH_KEYWORDS,
     "scan_records(data, count, layout=None) -> (min_ts_delta, max_ts_delta, null_keys)"},
    {"check_batch", (PyCFunction)(void (*)(void))check_batch, METH_FASTCALL,
     "check_batch(data, pos, header_type) -> (header, min_ts_delta, max_ts_delta, null_keys) | None"},
    {"check_client_batch", (PyCFunction)(void (*)(void))check_client_batch, METH_FASTCALL,
     "check_client_batch(data, header_type, lower, upper, max_size, compacted[, base_offset, "
     "leader_epoch]) -> header | None"},
    {"stamp_batch", (PyCFunction)(void (*)(void))stamp_batch, METH_FASTCALL,
     "stamp_batch(data, pos, base_offset, leader_epoch, header_type) -> header"},
    {"produce_frame", (PyCFunction)(void (*)(void))produce_frame, METH_FASTCALL,
     "produce_frame(frame, uuids, read_uuid) -> the single-partition Produce's fields | None"},
    {"schema_ids", (PyCFunction)schema_ids, METH_VARARGS,
     "schema_ids(data, count, field) -> (distinct schema ids, unframed count) of keys (0) or values (1)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "kwire.records._scan",
    "Compiled record-framing walker; see kwire/records/scan.py.", -1, methods,
};

/* module.attr, a new reference (NULL with an exception set). */
static PyObject *
import_attr(const char *module_name, const char *attr)
{
    PyObject *m = PyImport_ImportModule(module_name);
    if (m == NULL)
        return NULL;
    PyObject *value = PyObject_GetAttrString(m, attr);
    Py_DECREF(m);
    return value;
}

PyMODINIT_FUNC
PyInit__scan(void)
{
    CorruptRecordError = import_attr("kwire.records.errors", "CorruptRecordError");
    if (CorruptRecordError == NULL)
        return NULL;
    crc32c_fn = import_attr("kwire.records.crc", "crc32c");
    if (crc32c_fn == NULL)
        return NULL;
    return PyModule_Create(&module);
}
