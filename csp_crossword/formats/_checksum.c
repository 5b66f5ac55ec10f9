/* The .puz checksum in C: reading an archive of .puz files computes it over every clue of every
 * file twice (the file's own checksums are verified), which in Python is a loop per byte.
 * csp_crossword.formats.puz_extras.checksum is the reference, and falls back to its own loop when
 * this module is not built. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *checksum(PyObject *self, PyObject *args) {
    Py_buffer data;
    unsigned int value = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*|I", &data, &value))
        return NULL;
    const unsigned char *bytes = (const unsigned char *)data.buf;
    value &= 0xFFFFu;
    for (Py_ssize_t i = 0; i < data.len; i++) {
        /* rotate the 16-bit value right by one, then add the byte */
        value = (((value >> 1) | ((value & 1u) << 15)) + bytes[i]) & 0xFFFFu;
    }
    PyBuffer_Release(&data);
    return PyLong_FromUnsignedLong(value);
}

static PyMethodDef methods[] = {
    {"checksum", checksum, METH_VARARGS, "checksum(data: bytes, value: int = 0) -> int: the .puz checksum."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_checksum", "The .puz checksum, compiled.", -1, methods};

PyMODINIT_FUNC PyInit__checksum(void) { return PyModule_Create(&module); }
