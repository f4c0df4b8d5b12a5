/*
 * graphsr.io._folscan -- one pass over a passage run or FOL qrels file, in C.
 *
 * scan_run(data, topics, docs) -> tuple | int
 *
 *   data    bytes: the whole file
 *   topics, docs
 *           dicts name (str) -> code (int) shared with the assessments; names
 *           met for the first time are added with code len(dict)
 *
 *   Returns (topic, doc, rank, score, offset, length, line, run_id, run_ids):
 *   int64 arrays (score float64) with one entry per non-blank line in file
 *   order, run_id an index into the list run_ids.  Returns the 1-based number
 *   of the first line this fast path does not accept (not 8 fields, a number
 *   it does not read, a byte outside printable ASCII); the caller's
 *   line-by-line reader then explains that line or reads what this scanner
 *   declined.  Accepted: rank = [+-]digits, offset and length = digits (at
 *   most 18), score = a decimal number as Python's float() reads it.
 *
 * scan_qrels(data, topics, docs) -> tuple | int
 *
 *   Lines 'topic Q0 file rel_chars doc_len [bep offset:length ...]'.
 *   Returns (topic, doc, rel_chars, doc_len, bep, line, pass_row, pass_start,
 *   pass_end), passages sorted by offset within a row, or the first line not
 *   accepted: fields other than 5 or >= 7, a number that is not digits, a
 *   passage of length 0 or beyond doc_len, overlapping passages, rel_chars
 *   different from the passages' sum, a best entry point beyond doc_len.
 *   (A (topic, file) pair judged twice is checked by the caller.)
 *
 * scan_trec_run_into(data, topics, docs, run_ids, topic, doc, score, line, offset, first_line, extend=True)
 *
 *   A block of whole lines of a TREC document run into given columns from entry `offset` on; with
 *   extend=False names not in the dicts are coded after them (len(dict), ...) but kept out of them, in the
 *   scanner's index until forget(); new_names(0 or 1) gives them, in code order.  line_reached() is the
 *   number of the block's last line when every line was read (first_line plus the lines in the block).
 *
 * scan_trec_run(data, topics, docs) -> tuple | int
 *
 *   TREC document runs 'topic Q0 docno rank score run_id [anything]' (a
 *   seventh field holding '/' or '[' is an XPath: an element line, declined).
 *   Returns (topic, doc, score, line, run_ids), codes and lines int32; the
 *   rank is not read, as trec_eval does not read it.
 *
 * scan_element_run(data, topics, docs, paths) -> tuple | int
 *
 *   Element runs 'topic Q0 file rank score run_id xpath' (exactly 7 fields,
 *   an XPath in the seventh, an integer rank).  Returns (topic, doc, rank,
 *   score, path, line, run_ids): codes and lines int32, path codes indexing
 *   the dict `paths` (XPaths as written); the run ids met, not each line's.
 *
 * scan_trec_qrels(data, topics, docs) -> tuple | int
 *
 *   TREC document qrels 'topic iteration docno rel', exactly 4 fields.
 *   Returns (topic, doc, rel, line), codes and lines int32, rel float64.
 *
 * scan_dict(data, topics, docs[, topic_tail, doc_tail]) -> tuple | None
 *
 *   A {query_id: {doc_id: value}} dict (pytrec_eval's shape) whose keys are
 *   all str and values int or float: (topic, doc, value, empty_topics), one
 *   entry per inner item in dict order; None for anything else (the Python
 *   reader converts it or says what is wrong).  With the tails, names not in
 *   topics or docs go to them (codes after the vocabulary's), which then stays
 *   as it was.
 *
 * All read only `data`; the dicts are the only state they change.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#define MAXF 4096 /* fields accepted on one qrels line by the fast path */

/* A name -> code index kept in C for a names dict (the vocabulary's topics or articles): the dict is
   the truth, the index a cache of it, synced from the dict's entries in insertion order (the vocabulary
   only ever adds names).  It holds a reference to its dict, so the dict cannot be freed and another
   take its address while indexed.  Looking a name up needs no Python object unless it is new.

   The index is laid out for the cache: the open-addressing table (at most 3/4 full) holds 32-byte slots
   (a 32-bit tag of the hash, an entry number, the name's length and its first HEAD bytes), the entries are
   the names' offsets in `keys`, in insertion order, and the names' bytes are copied end to end into `keys`;
   an entry's code is its number (codes are kept apart only for a dict whose codes are not in insertion
   order).  A name of at most HEAD bytes (a chunk id, a docno) is found and compared in its slot alone: one
   cache line a look-up, where its offset and bytes elsewhere would cost two more misses to memory once the
   names outgrow the cache (a run of 125,000 distinct chunk ids: 3x faster to scan). */
#define HEAD 20
typedef struct {
    uint32_t tag; /* the hash's high bits, never 0 (0 marks an empty slot) */
    uint32_t entry;
    uint32_t len;    /* the name's length in bytes */
    char head[HEAD]; /* its first bytes (zero-padded) */
} Slot;

typedef struct {
    PyObject *dict;
    Py_ssize_t pos, count, cap; /* PyDict_Next position synced to; entries; slots (a power of two) */
    Py_ssize_t in_dict; /* entries also in the dict: those after it are names a scan met first, added to the dict
                           together when the scan ends (index_flush), each made a str once, not hashed twice */
    Slot *slots;
    int64_t *offsets; /* entry e's name is keys[offsets[e] : offsets[e + 1]] (offsets[count] = used) */
    int64_t *codes;   /* entry e's code; NULL while every code is its entry number (a vocabulary's usual case) */
    char *keys;
    Py_ssize_t used, room, entry_room; /* bytes in keys, and capacity of keys and entries */
} Index;

static Index indexes[2]; /* 0: topics, 1: articles */

static inline int same_bytes(const char *a, const char *b, Py_ssize_t len);

static uint64_t hash_bytes(const char *s, Py_ssize_t len) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (Py_ssize_t i = 0; i < len; ++i) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    h ^= h >> 29; /* FNV-1a's low bits alone cluster similar names: mix the high bits in */
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}

static inline uint32_t tag_of(uint64_t h) { return (uint32_t)(h >> 32) | 1u; }

/* a name's home slot in a table of `cap` slots, from its tag alone: a table grows without reading a name */
static inline Py_ssize_t home_of(uint32_t tag, Py_ssize_t cap) {
    return (Py_ssize_t)((((uint64_t)tag * 0x9e3779b97f4a7c15ULL) >> 32) & (uint64_t)(cap - 1));
}

static void index_free(Index *ix) {
    Py_CLEAR(ix->dict);
    free(ix->slots);
    free(ix->offsets);
    free(ix->codes);
    free(ix->keys);
    memset(ix, 0, sizeof *ix);
}

/* add name [key, key+len) (its hash_bytes `h`) with `code`; -1 where memory runs out */
static int index_put(Index *ix, const char *key, Py_ssize_t len, int64_t code, uint64_t h) {
    if (ix->count >= (Py_ssize_t)UINT32_MAX - 1 || len > (Py_ssize_t)UINT32_MAX) return -1;
    if (4 * (ix->count + 1) > 3 * ix->cap) { /* at most 3/4 full */
        Py_ssize_t cap = ix->cap ? 2 * ix->cap : 1024;
        Slot *slots = calloc((size_t)cap, sizeof(Slot));
        if (slots == NULL) return -1;
        for (Py_ssize_t k = 0; k < ix->cap; ++k) {
            if (!ix->slots[k].tag) continue;
            Py_ssize_t j = home_of(ix->slots[k].tag, cap);
            while (slots[j].tag) j = (j + 1) & (cap - 1);
            slots[j] = ix->slots[k];
        }
        free(ix->slots);
        ix->slots = slots;
        ix->cap = cap;
    }
    if (ix->count + 1 >= ix->entry_room) {
        Py_ssize_t room = ix->entry_room ? 2 * ix->entry_room : 1024;
        int64_t *offsets = realloc(ix->offsets, (size_t)room * sizeof(int64_t));
        if (offsets == NULL) return -1;
        ix->offsets = offsets;
        if (ix->codes != NULL) {
            int64_t *codes = realloc(ix->codes, (size_t)room * sizeof(int64_t));
            if (codes == NULL) return -1;
            ix->codes = codes;
        }
        ix->entry_room = room;
    }
    if (ix->codes == NULL && code != ix->count) { /* codes not in entry order: keep them */
        ix->codes = malloc((size_t)ix->entry_room * sizeof(int64_t));
        if (ix->codes == NULL) return -1;
        for (Py_ssize_t e = 0; e < ix->count; ++e) ix->codes[e] = e;
    }
    if (ix->used + len > ix->room) {
        Py_ssize_t room = ix->room ? 2 * ix->room : 16384;
        while (room < ix->used + len) room *= 2;
        char *keys = realloc(ix->keys, (size_t)room);
        if (keys == NULL) return -1;
        ix->keys = keys;
        ix->room = room;
    }
    memcpy(ix->keys + ix->used, key, (size_t)len);
    ix->offsets[ix->count] = ix->used;
    if (ix->codes != NULL) ix->codes[ix->count] = code;
    ix->used += len;
    ix->offsets[ix->count + 1] = ix->used;
    uint32_t tag = tag_of(h);
    Py_ssize_t j = home_of(tag, ix->cap);
    while (ix->slots[j].tag) j = (j + 1) & (ix->cap - 1);
    Slot slot = {tag, (uint32_t)ix->count, (uint32_t)len, {0}};
    memcpy(slot.head, key, (size_t)(len < HEAD ? len : HEAD));
    ix->slots[j] = slot;
    ++ix->count;
    return 0;
}

/* room in the index for `more` names beyond its entries, so that adding them grows nothing (a scan that knows
   how many names it may meet); -1 where memory runs out */
static int index_reserve(Index *ix, Py_ssize_t more) {
    Py_ssize_t want = ix->count + more;
    if (4 * want > 3 * ix->cap) {
        Py_ssize_t cap = ix->cap ? ix->cap : 1024;
        while (4 * want > 3 * cap) cap *= 2;
        Slot *slots = calloc((size_t)cap, sizeof(Slot));
        if (slots == NULL) return -1;
        for (Py_ssize_t k = 0; k < ix->cap; ++k) {
            if (!ix->slots[k].tag) continue;
            Py_ssize_t j = home_of(ix->slots[k].tag, cap);
            while (slots[j].tag) j = (j + 1) & (cap - 1);
            slots[j] = ix->slots[k];
        }
        free(ix->slots);
        ix->slots = slots;
        ix->cap = cap;
    }
    if (want + 1 >= ix->entry_room) {
        Py_ssize_t room = want + 2;
        int64_t *offsets = realloc(ix->offsets, (size_t)room * sizeof(int64_t));
        if (offsets == NULL) return -1;
        ix->offsets = offsets;
        if (ix->codes != NULL) {
            int64_t *codes = realloc(ix->codes, (size_t)room * sizeof(int64_t));
            if (codes == NULL) return -1;
            ix->codes = codes;
        }
        ix->entry_room = room;
    }
    return 0;
}

/* bring the index up to date with its dict; -1 (exception set) if a key is not a str */
static int index_sync(Index *ix) {
    PyObject *key, *value;
    while (PyDict_Next(ix->dict, &ix->pos, &key, &value)) {
        Py_ssize_t len;
        const char *utf8 = PyUnicode_AsUTF8AndSize(key, &len);
        long long code = PyLong_AsLongLong(value);
        if (utf8 == NULL || (code == -1 && PyErr_Occurred())) return -1;
        if (ix->count != ix->in_dict) { /* names kept out of the dict would clash with the dict's new codes */
            PyErr_SetString(PyExc_RuntimeError, "a vocabulary changed while a file was read with it");
            return -1;
        }
        if (index_put(ix, utf8, len, code, hash_bytes(utf8, len)) < 0) {
            PyErr_NoMemory();
            return -1;
        }
        ix->in_dict = ix->count;
    }
    return 0;
}

/* The names the index holds beyond its dict added to the dict, in entry order with their codes; 0, or -1 with an
   exception (the index is then dropped: it is only a cache of the dict).  Nothing else writes the dict meanwhile
   (a scan holds the GIL), so its new entries are these, in this order: the dict's iteration skips them. */
static int index_flush(Index *ix) {
    if (ix->dict == NULL) return 0;
    Py_ssize_t first = ix->in_dict;
    for (Py_ssize_t e = first; e < ix->count; ++e) {
        PyObject *key = PyUnicode_DecodeASCII(ix->keys + ix->offsets[e], (Py_ssize_t)(ix->offsets[e + 1] -
                                              ix->offsets[e]), NULL);
        PyObject *v = key == NULL ? NULL : PyLong_FromLongLong(ix->codes == NULL ? (int64_t)e : ix->codes[e]);
        int bad = v == NULL || PyDict_SetItem(ix->dict, key, v) < 0;
        Py_XDECREF(key);
        Py_XDECREF(v);
        if (bad) {
            index_free(ix);
            return -1;
        }
    }
    PyObject *key, *value;
    for (Py_ssize_t e = first; e < ix->count; ++e)
        if (!PyDict_Next(ix->dict, &ix->pos, &key, &value)) { /* cannot happen: the entries just added */
            index_free(ix);
            PyErr_SetString(PyExc_RuntimeError, "a names dict changed during a scan");
            return -1;
        }
    ix->in_dict = ix->count;
    return 0;
}

/* After a scan: the names it met first added to the vocabulary dicts (0), unless `extend` is 0 (they are then
   kept in the indexes, for the next block of the file and new_names); or, where the scan failed (`failed`), the
   indexes dropped with what they held beyond their dicts (1; so too where adding fails). */
static int names_done(int failed, int extend) {
    for (int w = 0; w < 2; ++w) {
        if (failed) index_free(&indexes[w]);
        else if (extend && index_flush(&indexes[w]) < 0) failed = 1;
    }
    if (failed)
        for (int w = 0; w < 2; ++w) index_free(&indexes[w]);
    return failed;
}

static Index *index_of(int which, PyObject *dict) {
    Index *ix = &indexes[which];
    if (ix->dict != dict) {
        index_free(ix);
        Py_INCREF(dict);
        ix->dict = dict;
    }
    if (index_sync(ix) < 0) { /* a key that is not a str, or has no UTF-8 form: no half-synced index is kept */
        index_free(ix);
        return NULL;
    }
    return ix;
}

/* the code of name [s, s+len) of hash_bytes `h` in the index, or -2 where it is not there */
static int64_t index_find_hashed(const Index *ix, const char *s, Py_ssize_t len, uint64_t h) {
    if (!ix->cap) return -2;
    uint32_t tag = tag_of(h);
    Py_ssize_t in_head = len < HEAD ? len : HEAD;
    for (Py_ssize_t j = home_of(tag, ix->cap); ix->slots[j].tag; j = (j + 1) & (ix->cap - 1)) {
        const Slot *slot = ix->slots + j;
        if (slot->tag != tag || (Py_ssize_t)slot->len != len || !same_bytes(slot->head, s, in_head)) continue;
        uint32_t e = slot->entry;
        if (len > HEAD && !same_bytes(ix->keys + ix->offsets[e] + HEAD, s + HEAD, len - HEAD)) continue;
        return ix->codes == NULL ? (int64_t)e : ix->codes[e];
    }
    return -2;
}

/* the code of name [s, s+len) in the index, or -2 where it is not there (*hash: its hash_bytes) */
static int64_t index_find(const Index *ix, const char *s, Py_ssize_t len, uint64_t *hash) {
    *hash = hash_bytes(s, len);
    return index_find_hashed(ix, s, len, *hash);
}

/* `key` (a str whose UTF-8 bytes are [s, s+len)) added to the dict with the next code, and to the index */
static int64_t index_add(Index *ix, PyObject *key) {
    if (index_flush(ix) < 0) return -1;
    int64_t c = (int64_t)PyDict_Size(ix->dict);
    PyObject *v = PyLong_FromLongLong(c);
    int bad = v == NULL || PyDict_SetItem(ix->dict, key, v) < 0;
    Py_XDECREF(v);
    if (bad || index_sync(ix) < 0) return -1;
    return c;
}

/* the code of name [s, s+len) (ASCII) of hash_bytes `h`, added to the index if new (to the dict when the scan
   ends: names_done); -1 with an exception on failure */
static int64_t index_code_hashed(Index *ix, const char *s, Py_ssize_t len, uint64_t h) {
    int64_t c = index_find_hashed(ix, s, len, h);
    if (c != -2) return c;
    c = (int64_t)PyDict_Size(ix->dict) + (int64_t)(ix->count - ix->in_dict);
    if (index_put(ix, s, len, c, h) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return c;
}

/* the code of the str `key`, added to the dict (and index) if new; -1 with an exception on failure, -3 (no
   exception) for a str with no UTF-8 form (a lone surrogate: the Python reader takes it).  Looked up by its UTF-8
   bytes in the index (which a compact ASCII str holds in place): no dict probe, no Python object. */
static int64_t index_code_of(Index *ix, PyObject *key) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(key, &len);
    if (s == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
        PyErr_Clear();
        return -3;
    }
    uint64_t h;
    int64_t c = index_find(ix, s, len, &h);
    return c != -2 ? c : index_add(ix, key);
}

/* A name -> code look-up that remembers the previous line's name (runs repeat it). */
typedef struct {
    Index *ix;       /* the C index of a vocabulary dict, or NULL: look up `dict` directly */
    PyObject *dict;
    const char *last;
    Py_ssize_t last_len;
    int64_t last_code;
} Names;

static inline int same_bytes(const char *a, const char *b, Py_ssize_t len) {
    for (Py_ssize_t i = 0; i < len; ++i)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* name_code with the name's hash_bytes `h` computed already (0: not computed) */
static inline int64_t name_code_hashed(Names *n, const char *s, Py_ssize_t len, uint64_t h) {
    if (n->last != NULL && n->last_len == len && same_bytes(n->last, s, len)) return n->last_code;
    int64_t c;
    if (n->ix != NULL) {
        c = index_code_hashed(n->ix, s, len, h ? h : hash_bytes(s, len));
    } else {
        PyObject *key = PyUnicode_DecodeASCII(s, len, NULL);
        if (key == NULL) return -1;
        PyObject *code = PyDict_GetItemWithError(n->dict, key); /* borrowed */
        if (code != NULL) {
            c = PyLong_AsLongLong(code);
        } else if (PyErr_Occurred()) {
            c = -1;
        } else {
            c = (int64_t)PyDict_Size(n->dict);
            PyObject *v = PyLong_FromLongLong(c);
            if (v == NULL || PyDict_SetItem(n->dict, key, v) < 0) c = -1;
            Py_XDECREF(v);
        }
        Py_DECREF(key);
    }
    if (c >= 0) {
        n->last = s;
        n->last_len = len;
        n->last_code = c;
    }
    return c;
}

static inline int64_t name_code(Names *n, const char *s, Py_ssize_t len) { return name_code_hashed(n, s, len, 0); }

/* digits only (at most 18): 0 on success */
static int read_digits(const char *s, Py_ssize_t len, int64_t *out) {
    if (len < 1 || len > 18) return -1;
    int64_t v = 0;
    for (Py_ssize_t i = 0; i < len; ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static int read_signed(const char *s, Py_ssize_t len, int64_t *out) {
    int neg = 0;
    if (len > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        ++s;
        --len;
    }
    if (read_digits(s, len, out) < 0) return -1;
    if (neg) *out = -*out;
    return 0;
}

static const double POW10[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* a decimal number, as float() reads it: [+-]digits[.digits][e[+-]digits] */
static int read_double(const char *s, Py_ssize_t len, double *out) {
    /* the common case [+-]digits[.digits] with at most 15 digits: m / 10^k is exact-then-rounded,
       so correctly rounded (both m and 10^k are exact doubles), as float() */
    Py_ssize_t i = (len > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    int64_t m = 0;
    int digits = 0, frac = -1;
    for (; i < len; ++i) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            m = m * 10 + (c - '0');
            if (++digits > 15) break;
            if (frac >= 0) ++frac;
        } else if (c == '.' && frac < 0) {
            frac = 0;
        } else {
            break;
        }
    }
    if (i == len && digits > 0) {
        double v = (double)m / POW10[frac > 0 ? frac : 0];
        *out = s[0] == '-' ? -v : v;
        return 0;
    }
    char buf[64];
    if (len < 1 || len >= (Py_ssize_t)sizeof buf) return -1;
    for (Py_ssize_t k = 0; k < len; ++k) {
        char c = s[k];
        if (!((c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' || c == 'e' || c == 'E')) return -1;
    }
    memcpy(buf, s, (size_t)len);
    buf[len] = '\0';
    char *end = NULL;
    double v = PyOS_string_to_double(buf, &end, NULL);
    if (v == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    if (end != buf + len) return -1;
    *out = v;
    return 0;
}

/* growable int64 buffer */
typedef struct {
    int64_t *v;
    Py_ssize_t n, cap;
} Buf;

static int buf_push(Buf *b, int64_t x) {
    if (b->n == b->cap) {
        Py_ssize_t cap = b->cap ? 2 * b->cap : 1024;
        int64_t *v = realloc(b->v, (size_t)cap * sizeof(int64_t));
        if (v == NULL) return -1;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = x;
    return 0;
}

static PyObject *as_array(const void *src, Py_ssize_t n, int type) {
    npy_intp dims[1] = {n};
    PyObject *a = PyArray_SimpleNew(1, dims, type);
    if (a != NULL && n > 0) memcpy(PyArray_DATA((PyArrayObject *)a), src, (size_t)n * 8);
    return a;
}

/* The first byte the fast path does not read (at or after p): anything but printable ASCII and the
   separators space, \t, \n, \v, \f, \r.  8 bytes at a time. */
static inline int odd(unsigned char c) {
    return c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r');
}

static const char *first_odd_byte(const char *p, const char *end) {
    const uint64_t high = 0x8080808080808080ULL, ones = 0x0101010101010101ULL;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if ((w & high) || ((w - 0x20 * ones) & ~w & high)) { /* a high bit, or maybe a byte below 0x20 */
            for (int i = 0; i < 8; ++i)
                if (odd((unsigned char)p[i])) return p + i;
        }
    }
    for (; p < end; ++p)
        if (odd((unsigned char)*p)) return p;
    return end;
}

/* After first_odd_byte, a byte above 0x20 is a field character and one at or below a separator. */
static inline const unsigned char *skip_sep(const unsigned char *u, const unsigned char *e) {
    while (u < e && *u <= 0x20) ++u;
    return u;
}

static inline const unsigned char *field_end(const unsigned char *u, const unsigned char *e) {
    /* 8 bytes at a time: (w - 0x21..) & ~w & 0x80.. flags the bytes below 0x21 (no byte has its high bit) */
    while (e - u >= 8) {
        uint64_t w;
        memcpy(&w, u, 8);
        uint64_t sep = (w - 0x2121212121212121ULL) & ~w & 0x8080808080808080ULL;
        if (sep) return u + (__builtin_ctzll(sep) >> 3); /* the lowest flagged byte is exact */
        u += 8;
    }
    while (u < e && *u > 0x20) ++u;
    return u;
}

/* Split one line [p, end) into fields; returns the count (up to max, max + 1 meaning "more"). */
static int split_fields(const char *p, const char *end, const char **fs, Py_ssize_t *fl, int max) {
    const unsigned char *u = (const unsigned char *)p, *e = (const unsigned char *)end;
    int n = 0;
    for (;;) {
        u = skip_sep(u, e);
        if (u >= e) return n;
        const unsigned char *s = u;
        u = field_end(u, e);
        if (n == max) return max + 1;
        fs[n] = (const char *)s;
        fl[n] = (const char *)u - (const char *)s;
        ++n;
    }
}

/* k new 1-d numpy arrays of `cap` entries (of the numpy `types`) that a scanner fills in place (no second copy
   of the columns); 0, or -1 with an exception. */
static int new_arrays(int k, Py_ssize_t cap, const int *types, PyObject **arrays, void **data) {
    npy_intp dims[1] = {cap > 0 ? cap : 1};
    for (int i = 0; i < k; ++i) arrays[i] = NULL;
    for (int i = 0; i < k; ++i) {
        arrays[i] = PyArray_SimpleNew(1, dims, types[i]);
        if (arrays[i] == NULL) return -1;
        data[i] = PyArray_DATA((PyArrayObject *)arrays[i]);
    }
    return 0;
}

/* cut the arrays to their first n entries (in place); 0, or -1 with an exception */
static int cut_arrays(int k, Py_ssize_t n, PyObject **arrays) {
    npy_intp len[1] = {n};
    PyArray_Dims dims = {len, 1};
    for (int i = 0; i < k; ++i) {
        PyObject *r = PyArray_Resize((PyArrayObject *)arrays[i], &dims, 0, NPY_CORDER);
        if (r == NULL) return -1;
        Py_DECREF(r);
    }
    return 0;
}

static void drop_arrays(int k, PyObject **arrays) {
    for (int i = 0; i < k; ++i) Py_XDECREF(arrays[i]);
}

/* The number of lines [data, end) can hold: its newlines, plus one for a last line without one. */
static Py_ssize_t line_capacity(const char *data, const char *end) {
    Py_ssize_t cap = 1;
    for (const char *q = data; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; ++q) ++cap;
    return cap;
}

/* The next line of a file for the line scanners: advances *p past it and counts it in *lineno.  Returns -1 for
   a line holding a byte the fast path does not read, 0 for a blank line or a comment (as trec_eval reads them),
   else the number of fields split into fs/fl: at most `max`, max + 1 when more follow. */
static int next_fields(const char **p, const char *end, const char *odd, long *lineno, const char **fs,
                       Py_ssize_t *fl, int max) {
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *le = nl ? nl : end;
    ++*lineno;
    if (le > odd) return -1;
    const unsigned char *e = (const unsigned char *)le, *u = skip_sep((const unsigned char *)*p, e);
    *p = nl ? nl + 1 : end;
    if (u == e || *u == '#') return 0;
    int k;
    for (k = 0; k < max && u < e; ++k) {
        fs[k] = (const char *)u;
        u = field_end(u, e);
        fl[k] = (const char *)u - fs[k];
        u = skip_sep(u, e);
    }
    return u < e ? max + 1 : k;
}

/* The records of [data, end) for the line scanners, one after the other (blank lines and comments skipped). */
typedef struct {
    const char *p, *end, *odd;
    long lineno; /* the line last read */
} Lines;

static Lines lines_of(const char *data, const char *end, long line0) {
    return (Lines){data, end, first_odd_byte(data, end), line0};
}

/* The next record's fields (as next_fields: -1 for a line the fast path does not read, max + 1 when more than
   max fields follow); 0 at the end of the data. */
static int next_record(Lines *ls, const char **fs, Py_ssize_t *fl, int max) {
    while (ls->p < ls->end) {
        int k = next_fields(&ls->p, ls->end, ls->odd, &ls->lineno, fs, fl, max);
        if (k != 0) return k;
    }
    return 0;
}

static int topic_doc_names(PyObject *topics, PyObject *docs, Names *tn, Names *dn);
static PyObject *columns_result(int k, Py_ssize_t n, PyObject **arr, long bad, int failed, PyObject *tail);

static PyObject *scan_run(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs;
    if (!PyArg_ParseTuple(args, "y*O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs)) return NULL;
    const char *data = view.buf, *end = data + view.len;
    Py_ssize_t cap = line_capacity(data, end);
    /* topic, doc, rank, score, offset, length, line, run id: filled in place, cut to the lines read */
    static const int types[8] = {NPY_INT64, NPY_INT64, NPY_INT64, NPY_FLOAT64, NPY_INT64, NPY_INT64, NPY_INT64,
                                 NPY_INT64};
    void *cols[8];
    PyObject *arr[8];
    int failed = new_arrays(8, cap, types, arr, cols) < 0;
    int64_t *col[8];
    for (int k = 0; k < 8; ++k) col[k] = cols[k];
    double *score = failed ? NULL : (double *)cols[3];
    PyObject *run_ids = failed ? NULL : PyDict_New();
    Names tn, dn, rn = {NULL, run_ids, NULL, 0, 0};
    failed = failed || run_ids == NULL || topic_doc_names(topics, docs, &tn, &dn) < 0;
    long bad = 0;
    Py_ssize_t n = 0;
    Lines ls = lines_of(data, end, 0);
    const char *fs[8];
    Py_ssize_t fl[8];
    int k;
    while (!failed && !bad && (k = next_record(&ls, fs, fl, 8)) != 0) {
        int64_t rank, offset, length;
        double sc;
        if (k != 8 || read_signed(fs[3], fl[3], &rank) || read_double(fs[4], fl[4], &sc) ||
            read_digits(fs[6], fl[6], &offset) || read_digits(fs[7], fl[7], &length)) {
            bad = ls.lineno;
            break;
        }
        int64_t t = name_code(&tn, fs[0], fl[0]), d = name_code(&dn, fs[2], fl[2]), r = name_code(&rn, fs[5], fl[5]);
        if (t < 0 || d < 0 || r < 0) {
            failed = 1;
            break;
        }
        col[0][n] = t;
        col[1][n] = d;
        col[2][n] = rank;
        score[n] = sc;
        col[4][n] = offset;
        col[5][n] = length;
        col[6][n] = ls.lineno;
        col[7][n] = r;
        ++n;
    }
    failed = names_done(failed, 1);
    PyObject *ids = failed || bad ? NULL : PyDict_Keys(run_ids);
    PyObject *result = columns_result(8, n, arr, bad, failed || (!bad && ids == NULL), ids);
    Py_XDECREF(run_ids);
    PyBuffer_Release(&view);
    return result;
}

typedef struct {
    int64_t start, len;
} Span;

static int span_cmp(const void *a, const void *b) {
    int64_t x = ((const Span *)a)->start, y = ((const Span *)b)->start;
    return (x > y) - (x < y);
}

static PyObject *scan_qrels(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs;
    if (!PyArg_ParseTuple(args, "y*O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs)) return NULL;
    const char *data = view.buf, *end = data + view.len;
    Buf row[6] = {{0}}, pas[3] = {{0}};
    Names tn = {index_of(0, topics), topics, NULL, 0, 0}, dn = {index_of(1, docs), docs, NULL, 0, 0};
    const char **fs = malloc(MAXF * sizeof(char *));
    Py_ssize_t *fl = malloc(MAXF * sizeof(Py_ssize_t));
    Span *spans = malloc(MAXF * sizeof(Span));
    PyObject *result = NULL;
    int failed = fs == NULL || fl == NULL || spans == NULL || tn.ix == NULL || dn.ix == NULL;
    long bad = 0, lineno = 0;
    const char *p = data, *odd = first_odd_byte(data, end);
    while (!failed && !bad && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        ++lineno;
        if (le > odd) {
            bad = lineno;
            break;
        }
        int nf = split_fields(p, le, fs, fl, MAXF);
        p = nl ? nl + 1 : end;
        if (nf == 0 || fs[0][0] == '#') continue; /* blank line, or a comment (as trec_eval reads them) */
        int64_t rc, dl, bep = -1, sum = 0;
        if (nf < 5 || nf == 6 || nf > MAXF || read_digits(fs[3], fl[3], &rc) || read_digits(fs[4], fl[4], &dl)) {
            bad = lineno;
            break;
        }
        int np_ = 0;
        if (nf > 5) {
            if (read_digits(fs[5], fl[5], &bep) || bep > dl) {
                bad = lineno;
                break;
            }
            for (int k = 6; k < nf && !bad; ++k) {
                const char *colon = memchr(fs[k], ':', (size_t)fl[k]);
                int64_t o, m;
                if (colon == NULL || read_digits(fs[k], colon - fs[k], &o) ||
                    read_digits(colon + 1, fs[k] + fl[k] - colon - 1, &m) || m < 1 || o + m > dl) {
                    bad = lineno;
                    break;
                }
                spans[np_].start = o;
                spans[np_].len = m;
                ++np_;
                sum += m;
            }
            if (bad) break;
            qsort(spans, (size_t)np_, sizeof(Span), span_cmp);
            for (int k = 1; k < np_; ++k)
                if (spans[k - 1].start + spans[k - 1].len > spans[k].start) bad = lineno;
        }
        if (bad || sum != rc) {
            bad = lineno;
            break;
        }
        int64_t t = name_code(&tn, fs[0], fl[0]), d = name_code(&dn, fs[2], fl[2]);
        if (t < 0 || d < 0) {
            failed = 1;
            break;
        }
        int64_t r = row[0].n;
        failed |= buf_push(&row[0], t) | buf_push(&row[1], d) | buf_push(&row[2], rc) | buf_push(&row[3], dl) |
                  buf_push(&row[4], bep) | buf_push(&row[5], lineno);
        for (int k = 0; k < np_ && !failed; ++k)
            failed |= buf_push(&pas[0], r) | buf_push(&pas[1], spans[k].start) |
                      buf_push(&pas[2], spans[k].start + spans[k].len);
    }
    failed = names_done(failed, 1);
    if (!failed && bad) {
        result = PyLong_FromLong(bad);
    } else if (!failed) {
        result = Py_BuildValue("(NNNNNNNNN)", as_array(row[0].v, row[0].n, NPY_INT64),
                               as_array(row[1].v, row[1].n, NPY_INT64), as_array(row[2].v, row[2].n, NPY_INT64),
                               as_array(row[3].v, row[3].n, NPY_INT64), as_array(row[4].v, row[4].n, NPY_INT64),
                               as_array(row[5].v, row[5].n, NPY_INT64), as_array(pas[0].v, pas[0].n, NPY_INT64),
                               as_array(pas[1].v, pas[1].n, NPY_INT64), as_array(pas[2].v, pas[2].n, NPY_INT64));
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    for (int k = 0; k < 6; ++k) free(row[k].v);
    for (int k = 0; k < 3; ++k) free(pas[k].v);
    free(fs);
    free(fl);
    free(spans);
    PyBuffer_Release(&view);
    return result;
}

/* Whether a run line's seventh field reads as an XPath ('/' or '['): the line is then an element line. */
static int xpath_like(const char *s, Py_ssize_t len) {
    return memchr(s, '/', (size_t)len) != NULL || memchr(s, '[', (size_t)len) != NULL;
}

/* The topic and document look-ups of a scan, with their C indexes; 0, or -1 with an exception. */
static int topic_doc_names(PyObject *topics, PyObject *docs, Names *tn, Names *dn) {
    *tn = (Names){index_of(0, topics), topics, NULL, 0, 0};
    *dn = (Names){index_of(1, docs), docs, NULL, 0, 0};
    return tn->ix == NULL || dn->ix == NULL ? -1 : 0;
}

/* What a column scanner returns: the first line it declined (`bad`), or its k columns cut to n entries followed
   by `tail` (a reference stolen; NULL for none); NULL with an exception on a failure.  The arrays are released
   either way. */
static PyObject *columns_result(int k, Py_ssize_t n, PyObject **arr, long bad, int failed, PyObject *tail) {
    PyObject *result = NULL;
    if (!failed && bad) {
        result = PyLong_FromLong(bad);
    } else if (!failed && cut_arrays(k, n, arr) == 0 && (result = PyTuple_New(k + (tail != NULL))) != NULL) {
        for (int i = 0; i < k; ++i) {
            Py_INCREF(arr[i]);
            PyTuple_SET_ITEM(result, i, arr[i]);
        }
        if (tail != NULL) {
            PyTuple_SET_ITEM(result, k, tail);
            tail = NULL;
        }
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    Py_XDECREF(tail);
    drop_arrays(k, arr);
    return result;
}

/* The TREC document run lines of [data, end) into the columns from entry n0 on (at most cap entries in all),
   line numbers counted from line0.  Returns the entries written; sets *bad to the first line the fast path
   declines, or *failed (with an exception) on a failure. */
/* The line scan_trec_run_into last reached (its block's last line when the whole block was read). */
static long last_line = 0;

/* Records read ahead of their look-ups: each record's document name is hashed and its slot asked of memory
   (prefetched) while the records before it are looked up, so that a run of many distinct names waits for memory
   once a batch, not once a name.  Names are still looked up, and given codes, line by line in file order. */
#define BATCH 16

static Py_ssize_t trec_run_lines(const char *data, const char *end, Names *tn, Names *dn, Names *rn, int32_t *topic_c,
                                 int32_t *doc_c, double *score, int32_t *line_c, Py_ssize_t n0, Py_ssize_t cap,
                                 long line0, long *bad, int *failed) {
    Py_ssize_t n = n0;
    Lines ls = lines_of(data, end, line0);
    const char *fs[BATCH][7];
    Py_ssize_t fl[BATCH][7];
    long lno[BATCH];
    double sc[BATCH];
    uint64_t dh[BATCH]; /* each document name's hash_bytes (0: not hashed) */
    int done = 0;
    while (!*failed && !*bad && !done) {
        int m = 0, k;
        long declined = 0;
        while (m < BATCH) { /* 6 fields, or more with no XPath in the seventh (trec_eval reads nothing after the run id) */
            if ((k = next_record(&ls, fs[m], fl[m], 7)) == 0) {
                done = 1;
                break;
            }
            if (k < 6 || n + m >= cap || (k >= 7 && xpath_like(fs[m][6], fl[m][6])) ||
                read_double(fs[m][4], fl[m][4], &sc[m])) {
                declined = ls.lineno;
                break;
            }
            lno[m] = ls.lineno;
            const Index *ix = dn->ix;
            dh[m] = 0;
            if (ix != NULL && ix->cap) {
                dh[m] = hash_bytes(fs[m][2], fl[m][2]);
                __builtin_prefetch(ix->slots + home_of(tag_of(dh[m]), ix->cap));
            }
            ++m;
        }
        for (int i = 0; i < m; ++i) {
            int64_t t = name_code(tn, fs[i][0], fl[i][0]), d = name_code_hashed(dn, fs[i][2], fl[i][2], dh[i]),
                    r = name_code(rn, fs[i][5], fl[i][5]);
            if (t < 0 || d < 0 || r < 0) {
                *failed = 1;
                break;
            }
            if (lno[i] > INT32_MAX || t > INT32_MAX || d > INT32_MAX) { /* beyond 32-bit codes: the line reader */
                *bad = lno[i];
                break;
            }
            topic_c[n] = (int32_t)t;
            doc_c[n] = (int32_t)d;
            score[n] = sc[i];
            if (line_c != NULL) line_c[n] = (int32_t)lno[i];
            ++n;
        }
        if (!*failed && !*bad && declined) *bad = declined;
    }
    last_line = ls.lineno;
    return n - n0;
}

static PyObject *scan_trec_run(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs;
    if (!PyArg_ParseTuple(args, "y*O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs)) return NULL;
    const char *data = view.buf, *end = data + view.len;
    Py_ssize_t cap = line_capacity(data, end);
    void *col[4];
    PyObject *arr[4];
    static const int types[4] = {NPY_INT32, NPY_INT32, NPY_FLOAT64, NPY_INT32}; /* topic, doc, score, line */
    int failed = new_arrays(4, cap, types, arr, col) < 0;
    PyObject *run_ids = failed ? NULL : PyDict_New();
    Names tn, dn, rn = {NULL, run_ids, NULL, 0, 0};
    failed = failed || run_ids == NULL || topic_doc_names(topics, docs, &tn, &dn) < 0;
    long bad = 0;
    Py_ssize_t n = failed ? 0 : trec_run_lines(data, end, &tn, &dn, &rn, col[0], col[1], col[2], col[3], 0, cap, 0,
                                               &bad, &failed);
    failed = names_done(failed, 1);
    PyObject *ids = failed || bad ? NULL : PyDict_Keys(run_ids);
    PyObject *result = columns_result(4, n, arr, bad, failed || (!bad && ids == NULL), ids);
    Py_XDECREF(run_ids);
    PyBuffer_Release(&view);
    return result;
}

/* the writable, C-contiguous 1-d array `a` of numpy type `type`, or NULL with an exception */
static void *column_of(PyObject *a, int type, Py_ssize_t *len) {
    if (!PyArray_Check(a) || PyArray_TYPE((PyArrayObject *)a) != type || PyArray_NDIM((PyArrayObject *)a) != 1 ||
        !PyArray_ISCARRAY((PyArrayObject *)a)) {
        PyErr_SetString(PyExc_TypeError, "expected writable contiguous 1-d arrays of the scanner's types");
        return NULL;
    }
    *len = PyArray_DIM((PyArrayObject *)a, 0);
    return PyArray_DATA((PyArrayObject *)a);
}

static PyObject *scan_trec_run_into(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs, *run_ids, *a[4];
    Py_ssize_t offset;
    long first_line;
    int extend = 1;
    if (!PyArg_ParseTuple(args, "y*O!O!O!OOOOnl|p", &view, &PyDict_Type, &topics, &PyDict_Type, &docs, &PyDict_Type,
                          &run_ids, &a[0], &a[1], &a[2], &a[3], &offset, &first_line, &extend))
        return NULL;
    static const int types[4] = {NPY_INT32, NPY_INT32, NPY_FLOAT64, NPY_INT32};
    void *col[4];
    Py_ssize_t cap = -1, len = 0;
    PyObject *result = NULL;
    int failed = 0;
    for (int k = 0; k < 4 && !failed; ++k) {
        if (k == 3 && a[k] == Py_None) { /* no line column: the caller knows each entry's line otherwise */
            col[k] = NULL;
            continue;
        }
        col[k] = column_of(a[k], types[k], &len);
        failed = col[k] == NULL;
        cap = (cap < 0 || len < cap) ? len : cap;
    }
    Names tn, dn, rn = {NULL, run_ids, NULL, 0, 0};
    if (!failed) {
        failed = topic_doc_names(topics, docs, &tn, &dn) < 0 || offset < 0 || offset > cap;
        if (failed && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "offset outside the arrays");
    }
    long bad = 0;
    Py_ssize_t n = failed ? 0 : trec_run_lines(view.buf, (const char *)view.buf + view.len, &tn, &dn, &rn, col[0],
                                               col[1], col[2], col[3], offset, cap, first_line, &bad, &failed);
    failed = names_done(failed, extend);
    if (!failed) result = bad ? PyLong_FromLong(-bad) : PyLong_FromSsize_t(n);
    else if (!PyErr_Occurred()) PyErr_NoMemory();
    PyBuffer_Release(&view);
    return result;
}

static PyObject *scan_element_run(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs, *paths;
    if (!PyArg_ParseTuple(args, "y*O!O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs, &PyDict_Type, &paths))
        return NULL;
    const char *data = view.buf, *end = data + view.len;
    Py_ssize_t cap = line_capacity(data, end);
    void *col[6];
    PyObject *arr[6];
    /* topic, doc, rank, score, path, line */
    static const int types[6] = {NPY_INT32, NPY_INT32, NPY_INT64, NPY_FLOAT64, NPY_INT32, NPY_INT32};
    int failed = new_arrays(6, cap, types, arr, col) < 0;
    int32_t *topic_c = col[0], *doc_c = col[1], *path_c = col[4], *line_c = col[5];
    int64_t *rank_c = col[2];
    double *score = col[3];
    PyObject *run_ids = failed ? NULL : PyDict_New();
    Names tn, dn, xn = {NULL, paths, NULL, 0, 0}, rn = {NULL, run_ids, NULL, 0, 0};
    failed = failed || run_ids == NULL || topic_doc_names(topics, docs, &tn, &dn) < 0;
    long bad = 0;
    Py_ssize_t n = 0;
    Lines ls = lines_of(data, end, 0);
    const char *fs[7];
    Py_ssize_t fl[7];
    int k;
    while (!failed && !bad && (k = next_record(&ls, fs, fl, 7)) != 0) {
        int64_t rank;
        double sc;
        /* exactly 7 fields, an XPath in the seventh, an integer rank, a number as score */
        if (k != 7 || !xpath_like(fs[6], fl[6]) || read_signed(fs[3], fl[3], &rank) ||
            read_double(fs[4], fl[4], &sc)) {
            bad = ls.lineno;
            break;
        }
        int64_t t = name_code(&tn, fs[0], fl[0]), d = name_code(&dn, fs[2], fl[2]), r = name_code(&rn, fs[5], fl[5]),
                x = name_code(&xn, fs[6], fl[6]);
        if (t < 0 || d < 0 || r < 0 || x < 0) {
            failed = 1;
            break;
        }
        if (ls.lineno > INT32_MAX || t > INT32_MAX || d > INT32_MAX || x > INT32_MAX) {
            bad = ls.lineno;
            break;
        }
        topic_c[n] = (int32_t)t;
        doc_c[n] = (int32_t)d;
        rank_c[n] = rank;
        score[n] = sc;
        path_c[n] = (int32_t)x;
        line_c[n] = (int32_t)ls.lineno;
        (void)r;
        ++n;
    }
    failed = names_done(failed, 1);
    PyObject *ids = failed || bad ? NULL : PyDict_Keys(run_ids);
    PyObject *result = columns_result(6, n, arr, bad, failed || (!bad && ids == NULL), ids);
    Py_XDECREF(run_ids);
    PyBuffer_Release(&view);
    return result;
}

static PyObject *scan_trec_qrels(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs;
    if (!PyArg_ParseTuple(args, "y*O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs)) return NULL;
    const char *data = view.buf, *end = data + view.len;
    Py_ssize_t cap = line_capacity(data, end);
    void *col[4];
    PyObject *arr[4];
    static const int types[4] = {NPY_INT32, NPY_INT32, NPY_FLOAT64, NPY_INT32}; /* topic, doc, rel, line */
    int failed = new_arrays(4, cap, types, arr, col) < 0;
    int32_t *topic_c = col[0], *doc_c = col[1], *line_c = col[3];
    double *rel = col[2];
    Names tn, dn;
    failed = failed || topic_doc_names(topics, docs, &tn, &dn) < 0;
    long bad = 0;
    Py_ssize_t n = 0;
    Lines ls = lines_of(data, end, 0);
    const char *fs[4];
    Py_ssize_t fl[4];
    int k;
    while (!failed && !bad && (k = next_record(&ls, fs, fl, 4)) != 0) {
        double r;
        if (k != 4 || read_double(fs[3], fl[3], &r)) { /* TREC qrels: exactly 4 fields */
            bad = ls.lineno;
            break;
        }
        int64_t t = name_code(&tn, fs[0], fl[0]), d = name_code(&dn, fs[2], fl[2]);
        if (t < 0 || d < 0) {
            failed = 1;
            break;
        }
        if (ls.lineno > INT32_MAX || t > INT32_MAX || d > INT32_MAX) {
            bad = ls.lineno;
            break;
        }
        topic_c[n] = (int32_t)t;
        doc_c[n] = (int32_t)d;
        rel[n] = r;
        line_c[n] = (int32_t)ls.lineno;
        ++n;
    }
    failed = names_done(failed, 1);
    PyObject *result = columns_result(4, n, arr, bad, failed, NULL);
    PyBuffer_Release(&view);
    return result;
}

/* Element qrels: "topic Q0 file xpath rel" (a number), "topic Q0 file xpath e,s" or "topic Q0 file xpath e s" (INEX
   2002-2005 digits).  Columns topic, doc, path, value (NaN for an (e, s) line), e and s (-1 for a value line), line. */
static PyObject *scan_element_qrels(PyObject *self, PyObject *args) {
    Py_buffer view;
    PyObject *topics, *docs, *paths;
    if (!PyArg_ParseTuple(args, "y*O!O!O!", &view, &PyDict_Type, &topics, &PyDict_Type, &docs, &PyDict_Type, &paths))
        return NULL;
    const char *data = view.buf, *end = data + view.len;
    Py_ssize_t cap = line_capacity(data, end);
    void *col[7];
    PyObject *arr[7];
    static const int types[7] = {NPY_INT32, NPY_INT32, NPY_INT32, NPY_FLOAT64, NPY_INT32, NPY_INT32, NPY_INT32};
    int failed = new_arrays(7, cap, types, arr, col) < 0;
    int32_t *topic_c = col[0], *doc_c = col[1], *path_c = col[2], *e_c = col[4], *s_c = col[5], *line_c = col[6];
    double *value = col[3];
    Names tn, dn, xn = {NULL, paths, NULL, 0, 0};
    failed = failed || topic_doc_names(topics, docs, &tn, &dn) < 0;
    long bad = 0;
    Py_ssize_t n = 0;
    Lines ls = lines_of(data, end, 0);
    const char *fs[6];
    Py_ssize_t fl[6];
    int k;
    while (!failed && !bad && (k = next_record(&ls, fs, fl, 6)) != 0) {
        double v = NAN;
        int64_t e = -1, sp = -1;
        if (k == 6) { /* e s */
            if (read_digits(fs[4], fl[4], &e) || read_digits(fs[5], fl[5], &sp)) bad = ls.lineno;
        } else if (k == 5) {
            const char *comma = memchr(fs[4], ',', (size_t)fl[4]);
            if (comma != NULL) { /* e,s */
                if (read_digits(fs[4], comma - fs[4], &e) || read_digits(comma + 1, fs[4] + fl[4] - comma - 1, &sp))
                    bad = ls.lineno;
            } else if (read_double(fs[4], fl[4], &v)) {
                bad = ls.lineno;
            }
        } else {
            bad = ls.lineno;
        }
        if (bad || e > 9 || sp > 9) {
            bad = ls.lineno;
            break;
        }
        int64_t t = name_code(&tn, fs[0], fl[0]), d = name_code(&dn, fs[2], fl[2]), x = name_code(&xn, fs[3], fl[3]);
        if (t < 0 || d < 0 || x < 0) {
            failed = 1;
            break;
        }
        if (ls.lineno > INT32_MAX || t > INT32_MAX || d > INT32_MAX || x > INT32_MAX) {
            bad = ls.lineno;
            break;
        }
        topic_c[n] = (int32_t)t;
        doc_c[n] = (int32_t)d;
        path_c[n] = (int32_t)x;
        value[n] = v;
        e_c[n] = (int32_t)e;
        s_c[n] = (int32_t)sp;
        line_c[n] = (int32_t)ls.lineno;
        ++n;
    }
    failed = names_done(failed, 1);
    PyObject *result = columns_result(7, n, arr, bad, failed, NULL);
    PyBuffer_Release(&view);
    return result;
}

/* the code of document name `key` (a str, its hash cached in it) in the names dict `dict`, added if new; -1 with
   an exception on failure.  For names that come as str objects (a dict's keys), the dict itself is the fastest
   index: one probe with the cached hash, where the C index would hash the bytes again (and, for the mostly new
   names of a run of a large collection, add each to both). */
static int64_t dict_code(PyObject *dict, PyObject *key) {
    PyObject *found = PyDict_GetItemWithError(dict, key); /* borrowed */
    if (found != NULL) return PyLong_AsLongLong(found);
    if (PyErr_Occurred()) return -1;
    Py_ssize_t c = PyDict_Size(dict);
    PyObject *v = PyLong_FromSsize_t(c);
    if (v == NULL) return -1;
    int bad = PyDict_SetItem(dict, key, v) < 0;
    Py_DECREF(v);
    return bad ? -1 : (int64_t)c;
}

/* the code of `key` in the vocabulary dict `dict` if there, else in `tail` (its names beyond the vocabulary:
   codes len(dict), len(dict) + 1, ...), added there if new (one probe: PyDict_SetDefault); -1 with an exception */
static int64_t tail_code(PyObject *dict, PyObject *tail, PyObject *key) {
    PyObject *found = PyDict_GetItemWithError(dict, key); /* borrowed */
    if (found != NULL) return PyLong_AsLongLong(found);
    if (PyErr_Occurred()) return -1;
    PyObject *v = PyLong_FromSsize_t(PyDict_Size(dict) + PyDict_Size(tail));
    if (v == NULL) return -1;
    PyObject *got = PyDict_SetDefault(tail, key, v); /* borrowed: v where key is new */
    int64_t c = got == NULL ? -1 : PyLong_AsLongLong(got);
    Py_DECREF(v);
    return c;
}

/* the code of the str `key` among the vocabulary `n` (its C index), or the next code after the vocabulary's and
   the names met before if it is new (kept in the index, not added to the dict: new_names gives them); -3 for a key
   that is not ASCII (the caller declines: the look-up by bytes needs ASCII), -1 with an exception on failure */
static inline int64_t ascii_code(Names *n, PyObject *key) {
    if (!PyUnicode_IS_ASCII(key)) return -3;
    return name_code(n, (const char *)PyUnicode_DATA(key), PyUnicode_GET_LENGTH(key));
}

/* How dict_columns codes a dict's names: PLAIN, topics by the C index of `topics` and documents in `docs`, both
   dicts extended; TAILS, after the vocabulary `topics` and `docs` (left as they are), the names beyond it in the
   tail dicts; CODED, after the vocabulary by the C indexes, the names beyond it kept there for new_names. */
enum { PLAIN, TAILS, CODED };

typedef struct {
    int how;
    PyObject *topics, *docs, *topic_tail, *doc_tail;
    Names tn, dn; /* tn.ix: PLAIN and CODED; dn.ix: CODED */
} DictCodes;

/* the indexes `c` codes by, made (with room for `n` new names where CODED); 0, 1 where a vocabulary name has no
   UTF-8 form (the caller declines: nothing is kept), -1 with an exception on failure */
static int dict_indexes(DictCodes *c, PyObject *data, Py_ssize_t n) {
    c->tn = (Names){NULL, c->topics, NULL, 0, 0};
    c->dn = (Names){NULL, c->docs, NULL, 0, 0};
    for (int w = 0; w < (c->how == CODED ? 2 : c->how == PLAIN ? 1 : 0); ++w) { /* one at a time: none made with
                                                                                   an error set */
        Index *ix = index_of(w, w == 0 ? c->topics : c->docs);
        if (ix == NULL) {
            if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
            PyErr_Clear();
            return 1;
        }
        (w == 0 ? &c->tn : &c->dn)->ix = ix;
        if (c->how == CODED && index_reserve(ix, w == 0 ? PyDict_Size(data) : n) < 0) { /* at most this many */
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static int64_t dict_topic_code(DictCodes *c, PyObject *q) {
    if (c->how == TAILS) return tail_code(c->topics, c->topic_tail, q);
    return c->how == CODED ? ascii_code(&c->tn, q) : index_code_of(c->tn.ix, q);
}

static int64_t dict_doc_code(DictCodes *c, PyObject *d) {
    if (c->how == TAILS) return tail_code(c->docs, c->doc_tail, d);
    return c->how == CODED ? ascii_code(&c->dn, d) : dict_code(c->docs, d);
}

/* The columns of a {query_id: {doc_id: value}} dict, its names coded as `c` says (see scan_dict): (topic, doc,
   value, empty_topics), or None for content the Python reader reads (a key that is not a str, or for CODED an
   ASCII str; a value that is not an int or a float). */
static PyObject *dict_columns(PyObject *data, DictCodes *c) {
    Py_ssize_t n = 0, pos = 0, most = 1;
    PyObject *q, *inner;
    while (PyDict_Next(data, &pos, &q, &inner)) {
        if (!PyDict_CheckExact(inner) || !PyUnicode_CheckExact(q)) Py_RETURN_NONE; /* the Python reader says why */
        n += PyDict_Size(inner);
        most = PyDict_Size(inner) > most ? PyDict_Size(inner) : most;
    }
    int64_t *tc = malloc((size_t)(n ? n : 1) * sizeof(int64_t)), *dc = malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    double *val = malloc((size_t)(n ? n : 1) * sizeof(double));
    PyObject **keys = malloc((size_t)most * sizeof(PyObject *)), **values = malloc((size_t)most * sizeof(PyObject *));
    PyObject *empty = PyList_New(0), *result = NULL;
    int failed = tc == NULL || dc == NULL || val == NULL || keys == NULL || values == NULL || empty == NULL;
    int fallback = 0;
    if (!failed) {
        int got = dict_indexes(c, data, n);
        failed = got < 0;
        fallback = got > 0;
    }
    Py_ssize_t k = 0;
    pos = 0;
    while (!failed && !fallback && PyDict_Next(data, &pos, &q, &inner)) {
        int64_t t = dict_topic_code(c, q);
        if (t == -3) {
            fallback = 1;
            break;
        }
        if (t < 0) {
            failed = 1;
            break;
        }
        if (PyDict_Size(inner) == 0 && PyList_Append(empty, q) < 0) failed = 1;
        /* a topic's items first gathered, their objects asked for from memory as they come (a user's names and
           numbers lie anywhere in it), then read */
        Py_ssize_t ipos = 0, m = 0;
        PyObject *d, *v;
        while (PyDict_Next(inner, &ipos, &d, &v)) {
            __builtin_prefetch(d);
            __builtin_prefetch(v);
            keys[m] = d;
            values[m++] = v;
        }
        for (Py_ssize_t j = 0; !failed && j < m; ++j) {
            d = keys[j];
            v = values[j];
            double x;
            if (!PyUnicode_CheckExact(d)) {
                fallback = 1;
                break;
            }
            if (PyFloat_Check(v)) { /* float, and its subclasses (numpy.float64) */
                x = PyFloat_AS_DOUBLE(v);
            } else if (PyLong_CheckExact(v)) {
                x = PyLong_AsDouble(v);
                if (x == -1.0 && PyErr_Occurred()) {
                    PyErr_Clear();
                    fallback = 1;
                    break;
                }
            } else { /* bool, str, numpy scalars, None...: the Python reader converts or refuses */
                fallback = 1;
                break;
            }
            int64_t code = dict_doc_code(c, d);
            if (code == -3) {
                fallback = 1;
                break;
            }
            if (code < 0) {
                failed = 1;
                break;
            }
            tc[k] = t;
            dc[k] = code;
            val[k] = x;
            ++k;
        }
    }
    if (c->how == CODED) {
        if (failed || fallback) /* nothing kept: the indexes dropped with the names they held beyond the dicts */
            for (int w = 0; w < 2; ++w) index_free(&indexes[w]);
        else
            failed = names_done(0, 0); /* the new names stay in the indexes, for new_names */
    }
    if (!failed && fallback) {
        result = Py_None;
        Py_INCREF(result);
    } else if (!failed) {
        result = Py_BuildValue("(NNNO)", as_array(tc, k, NPY_INT64), as_array(dc, k, NPY_INT64),
                               as_array(val, k, NPY_FLOAT64), empty);
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    free(tc);
    free(dc);
    free(val);
    free(keys);
    free(values);
    Py_XDECREF(empty);
    return result;
}

static PyObject *scan_dict(PyObject *self, PyObject *args) {
    PyObject *data;
    DictCodes c = {PLAIN, NULL, NULL, NULL, NULL};
    if (!PyArg_ParseTuple(args, "O!O!O!|O!O!", &PyDict_Type, &data, &PyDict_Type, &c.topics, &PyDict_Type, &c.docs,
                          &PyDict_Type, &c.topic_tail, &PyDict_Type, &c.doc_tail))
        return NULL;
    if ((c.topic_tail == NULL) != (c.doc_tail == NULL)) {
        PyErr_SetString(PyExc_TypeError, "scan_dict takes both tails or neither");
        return NULL;
    }
    c.how = c.topic_tail != NULL ? TAILS : PLAIN;
    return dict_columns(data, &c);
}

/*
 * scan_dict_coded(data, topics, docs) -> tuple | None
 *
 *   scan_dict with a vocabulary (the assessments' topics and docs dicts, left as they are): each name coded by
 *   the vocabulary, a name it lacks by the next code in order of first appearance, looked up by its bytes in the
 *   C indexes (no Python object made or hashed per name); the names beyond the vocabulary come from
 *   new_names(0) and new_names(1), then forget().  None (nothing kept) for a key that is not an ASCII str, a
 *   value that is not an int or float: the caller reads such a dict otherwise.
 */
static PyObject *scan_dict_coded(PyObject *self, PyObject *args) {
    PyObject *data;
    DictCodes c = {CODED, NULL, NULL, NULL, NULL};
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyDict_Type, &data, &PyDict_Type, &c.topics, &PyDict_Type, &c.docs))
        return NULL;
    return dict_columns(data, &c);
}


/* The names the index of topics (0) or documents (1) holds beyond its dict, in code order: those scans with
   extend=False met first (codes len(dict), len(dict) + 1, ...). */
static PyObject *new_names(PyObject *self, PyObject *args) {
    int which;
    if (!PyArg_ParseTuple(args, "i", &which)) return NULL;
    if (which < 0 || which > 1) {
        PyErr_SetString(PyExc_ValueError, "which: 0 (topics) or 1 (documents)");
        return NULL;
    }
    Index *ix = &indexes[which];
    Py_ssize_t first = ix->dict == NULL ? 0 : ix->in_dict, count = ix->dict == NULL ? 0 : ix->count;
    PyObject *out = PyList_New(count - first);
    for (Py_ssize_t e = first; out != NULL && e < count; ++e) {
        PyObject *name = PyUnicode_DecodeASCII(ix->keys + ix->offsets[e], (Py_ssize_t)(ix->offsets[e + 1] -
                                               ix->offsets[e]), NULL);
        if (name == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, e - first, name);
    }
    return out;
}

static PyObject *line_reached(PyObject *self, PyObject *unused) { return PyLong_FromLong(last_line); }

/* Drop the C indexes of the vocabulary dicts (and the references they hold to them): readers call it when a
   file is read, so an index never outlives its use nor keeps a vocabulary alive. */
static PyObject *forget(PyObject *self, PyObject *unused) {
    for (int w = 0; w < 2; ++w) index_free(&indexes[w]);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"forget", forget, METH_NOARGS, "Drop the name indexes kept between scans."},
    {"line_reached", line_reached, METH_NOARGS,
     "The line scan_trec_run_into last reached: with first_line, the lines of a block it read whole."},
    {"new_names", new_names, METH_VARARGS,
     "The names a scan with extend=False met first, beyond the topics' (0) or documents' (1) dict."},
    {"scan_run", scan_run, METH_VARARGS, "Columns of a well-formed passage run file, or the first line not read."},
    {"scan_qrels", scan_qrels, METH_VARARGS, "Columns of a well-formed FOL qrels file, or the first line not read."},
    {"scan_trec_run", scan_trec_run, METH_VARARGS,
     "Columns of a well-formed TREC document run file, or the first line not read."},
    {"scan_trec_run_into", scan_trec_run_into, METH_VARARGS,
     "A block of whole TREC document run lines into given columns (the line column may be None): entries written, "
     "or minus the first line not read."},
    {"scan_element_run", scan_element_run, METH_VARARGS,
     "Columns of a well-formed element run file, or the first line not read."},
    {"scan_dict", scan_dict, METH_VARARGS,
     "Columns of {query_id: {doc_id: number}} with str keys, or None for any other content."},
    {"scan_dict_coded", scan_dict_coded, METH_VARARGS,
     "scan_dict coded after a vocabulary, its new names kept for new_names; None for non-ASCII keys or values."},
    {"scan_element_qrels", scan_element_qrels, METH_VARARGS,
     "Columns of a well-formed element qrels file (values or (e, s) pairs), or the first line not read."},
    {"scan_trec_qrels", scan_trec_qrels, METH_VARARGS,
     "Columns of a well-formed TREC document qrels file, or the first line not read."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_folscan", "Fast scanner of passage runs and FOL qrels.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__folscan(void) {
    import_array();
    return PyModule_Create(&module);
}
