/* tt/version.h: the tracetune version written into every output file. */
#ifndef TT_VERSION_H
#define TT_VERSION_H
#define TT_VERSION "0.1.0"
#endif
