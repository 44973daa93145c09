/*
 * shmpi: the MPI C interface.
 *
 * Standard names, types and semantics only, so a program that builds here
 * builds unchanged against any other MPI.  A function appears in this header
 * only once shmpi implements it.  Every MPI_X is a weak alias of PMPI_X (the
 * profiling interface).
 *
 * Handles are ints: bits 26-29 name the kind of object, bit 30 marks the
 * predefined ones.  A freed or forged handle is detected and reported as the
 * error class of its kind, never dereferenced.
 */
#ifndef MPI_H_INCLUDED
#define MPI_H_INCLUDED

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 4
#define MPI_SUBVERSION 1

/* The implementation (not part of the MPI standard's names). */
#define SHMPI 1

/* ---- basic types ------------------------------------------------------ */

typedef long MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Errhandler;
typedef int MPI_Group;
typedef int MPI_Info;
typedef int MPI_Message;
typedef int MPI_Op;
typedef int MPI_Request;
typedef int MPI_Win;
typedef int MPI_Session;
typedef int MPI_Message;

typedef struct MPI_Status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int shmpi_cancelled;
	MPI_Count shmpi_count;
} MPI_Status;

/* A Fortran 2008 status as C sees it (MPI-3.1 section 17.2.5); a Fortran
 * INTEGER status (MPI_Status_c2f) is the same MPI_Fints in this order:
 * MPI_F_STATUS_SIZE of them, the fields at MPI_F_SOURCE, MPI_F_TAG and
 * MPI_F_ERROR (MPI 4.1, section 19.3.5). */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
	MPI_Fint MPI_SOURCE;
	MPI_Fint MPI_TAG;
	MPI_Fint MPI_ERROR;
	MPI_Fint shmpi_cancelled;
	MPI_Fint shmpi_count[2];	/* low and high 32 bits */
} MPI_F08_status;

/* ---- predefined handles ----------------------------------------------- */

#define MPI_COMM_NULL ((MPI_Comm)0x04000000)
#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_COMM_SELF ((MPI_Comm)0x44000001)

#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0x20000000)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)0x60000000)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)0x60000001)
#define MPI_ERRORS_ABORT ((MPI_Errhandler)0x60000002)

#define MPI_DATATYPE_NULL ((MPI_Datatype)0x0c000000)
#define MPI_CHAR ((MPI_Datatype)0x4c000001)
#define MPI_SIGNED_CHAR ((MPI_Datatype)0x4c000002)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)0x4c000003)
#define MPI_BYTE ((MPI_Datatype)0x4c000004)
#define MPI_WCHAR ((MPI_Datatype)0x4c000005)
#define MPI_SHORT ((MPI_Datatype)0x4c000006)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)0x4c000007)
#define MPI_INT ((MPI_Datatype)0x4c000008)
#define MPI_UNSIGNED ((MPI_Datatype)0x4c000009)
#define MPI_LONG ((MPI_Datatype)0x4c00000a)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)0x4c00000b)
#define MPI_LONG_LONG_INT ((MPI_Datatype)0x4c00000c)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)0x4c00000d)
#define MPI_FLOAT ((MPI_Datatype)0x4c00000e)
#define MPI_DOUBLE ((MPI_Datatype)0x4c00000f)
#define MPI_LONG_DOUBLE ((MPI_Datatype)0x4c000010)
#define MPI_C_BOOL ((MPI_Datatype)0x4c000011)
#define MPI_INT8_T ((MPI_Datatype)0x4c000012)
#define MPI_INT16_T ((MPI_Datatype)0x4c000013)
#define MPI_INT32_T ((MPI_Datatype)0x4c000014)
#define MPI_INT64_T ((MPI_Datatype)0x4c000015)
#define MPI_UINT8_T ((MPI_Datatype)0x4c000016)
#define MPI_UINT16_T ((MPI_Datatype)0x4c000017)
#define MPI_UINT32_T ((MPI_Datatype)0x4c000018)
#define MPI_UINT64_T ((MPI_Datatype)0x4c000019)
#define MPI_AINT ((MPI_Datatype)0x4c00001a)
#define MPI_COUNT ((MPI_Datatype)0x4c00001b)
#define MPI_OFFSET ((MPI_Datatype)0x4c00001c)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)0x4c00001d)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)0x4c00001e)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c00001f)
#define MPI_PACKED ((MPI_Datatype)0x4c000020)
#define MPI_FLOAT_INT ((MPI_Datatype)0x4c000021)
#define MPI_DOUBLE_INT ((MPI_Datatype)0x4c000022)
#define MPI_LONG_INT ((MPI_Datatype)0x4c000023)
#define MPI_2INT ((MPI_Datatype)0x4c000024)
#define MPI_SHORT_INT ((MPI_Datatype)0x4c000025)
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)0x4c000026)
/* Fortran types usable from C (MPI 3.1, section 3.2.2 and Annex A.1.1), with
 * gfortran's sizes; the optional sized ones that the compiler cannot
 * represent are MPI_DATATYPE_NULL, as section 3.2.2 asks. */
#define MPI_CHARACTER ((MPI_Datatype)0x4c000027)
#define MPI_LOGICAL ((MPI_Datatype)0x4c000028)
#define MPI_INTEGER ((MPI_Datatype)0x4c000029)
#define MPI_REAL ((MPI_Datatype)0x4c00002a)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)0x4c00002b)
#define MPI_COMPLEX ((MPI_Datatype)0x4c00002c)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)0x4c00002d)
#define MPI_INTEGER1 ((MPI_Datatype)0x4c00002e)
#define MPI_INTEGER2 ((MPI_Datatype)0x4c00002f)
#define MPI_INTEGER4 ((MPI_Datatype)0x4c000030)
#define MPI_INTEGER8 ((MPI_Datatype)0x4c000031)
#if defined(__SIZEOF_INT128__)
#define MPI_INTEGER16 ((MPI_Datatype)0x4c000032)
#else
#define MPI_INTEGER16 MPI_DATATYPE_NULL
#endif
#define MPI_REAL4 ((MPI_Datatype)0x4c000033)
#define MPI_REAL8 ((MPI_Datatype)0x4c000034)
#if defined(__SIZEOF_FLOAT128__) || \
    (defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113)
#define MPI_REAL16 ((MPI_Datatype)0x4c000035)
#define MPI_COMPLEX32 ((MPI_Datatype)0x4c000038)
#else
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
#endif
#define MPI_COMPLEX8 ((MPI_Datatype)0x4c000036)
#define MPI_COMPLEX16 ((MPI_Datatype)0x4c000037)
#define MPI_LOGICAL1 ((MPI_Datatype)0x4c000039)
#define MPI_LOGICAL2 ((MPI_Datatype)0x4c00003a)
#define MPI_LOGICAL4 ((MPI_Datatype)0x4c00003b)
#define MPI_LOGICAL8 ((MPI_Datatype)0x4c00003c)
#define MPI_2INTEGER ((MPI_Datatype)0x4c00003d)
#define MPI_2REAL ((MPI_Datatype)0x4c00003e)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)0x4c00003f)
#define MPI_2COMPLEX ((MPI_Datatype)0x4c000040)
#define MPI_2DOUBLE_COMPLEX ((MPI_Datatype)0x4c000041)
/* C++ types usable from C, with g++'s sizes */
#define MPI_CXX_BOOL ((MPI_Datatype)0x4c000042)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)0x4c000043)
#define MPI_CXX_COMPLEX MPI_CXX_FLOAT_COMPLEX
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000044)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)0x4c000045)

#define MPI_GROUP_NULL ((MPI_Group)0x08000000)
#define MPI_GROUP_EMPTY ((MPI_Group)0x48000000)

#define MPI_OP_NULL ((MPI_Op)0x10000000)
#define MPI_MAX ((MPI_Op)0x50000001)
#define MPI_MIN ((MPI_Op)0x50000002)
#define MPI_SUM ((MPI_Op)0x50000003)
#define MPI_PROD ((MPI_Op)0x50000004)
#define MPI_LAND ((MPI_Op)0x50000005)
#define MPI_BAND ((MPI_Op)0x50000006)
#define MPI_LOR ((MPI_Op)0x50000007)
#define MPI_BOR ((MPI_Op)0x50000008)
#define MPI_LXOR ((MPI_Op)0x50000009)
#define MPI_BXOR ((MPI_Op)0x5000000a)
#define MPI_MINLOC ((MPI_Op)0x5000000b)
#define MPI_MAXLOC ((MPI_Op)0x5000000c)
#define MPI_REPLACE ((MPI_Op)0x5000000d)
#define MPI_NO_OP ((MPI_Op)0x5000000e)

#define MPI_REQUEST_NULL ((MPI_Request)0x14000000)

#define MPI_WIN_NULL ((MPI_Win)0x18000000)

#define MPI_INFO_NULL ((MPI_Info)0x1c000000)
#define MPI_INFO_ENV ((MPI_Info)0x5c000000)

#define MPI_MESSAGE_NULL ((MPI_Message)0x24000000)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)0x64000000)

#define MPI_SESSION_NULL ((MPI_Session)0x28000000)

/* ---- special values --------------------------------------------------- */

#define MPI_ANY_SOURCE (-2)
#define MPI_PROC_NULL (-1)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)1)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)1)
#define MPI_F08_STATUS_IGNORE ((MPI_F08_status *)1)
#define MPI_F08_STATUSES_IGNORE ((MPI_F08_status *)1)
#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)
#define MPI_BSEND_OVERHEAD 96
/* MPI 4.1, section 3.6.1: attach it for buffering limited only by memory */
#define MPI_BUFFER_AUTOMATIC ((void *)-2)

/* ---- constants -------------------------------------------------------- */

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128

#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID (-1)
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256

/* results of MPI_Group_compare and MPI_Comm_compare */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* process topologies */
#define MPI_CART 1
#define MPI_GRAPH 2
#define MPI_DIST_GRAPH 3
#define MPI_UNWEIGHTED ((int *)2)
#define MPI_WEIGHTS_EMPTY ((int *)3)

/* MPI_Comm_split_type */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_GUIDED 2
#define MPI_COMM_TYPE_HW_UNGUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4

/* the tool information interface: control variables */
typedef struct MPI_T_enum_s *MPI_T_enum;
typedef struct MPI_T_cvar_handle_s *MPI_T_cvar_handle;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_VERBOSITY_USER_BASIC 0
#define MPI_T_VERBOSITY_USER_DETAIL 1
#define MPI_T_VERBOSITY_USER_ALL 2
#define MPI_T_VERBOSITY_TUNER_BASIC 3
#define MPI_T_VERBOSITY_TUNER_DETAIL 4
#define MPI_T_VERBOSITY_TUNER_ALL 5
#define MPI_T_VERBOSITY_MPIDEV_BASIC 6
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 7
#define MPI_T_VERBOSITY_MPIDEV_ALL 8
#define MPI_T_BIND_NO_OBJECT 0
#define MPI_T_BIND_MPI_COMM 1
#define MPI_T_BIND_MPI_DATATYPE 2
#define MPI_T_BIND_MPI_ERRHANDLER 3
#define MPI_T_BIND_MPI_FILE 4
#define MPI_T_BIND_MPI_GROUP 5
#define MPI_T_BIND_MPI_OP 6
#define MPI_T_BIND_MPI_REQUEST 7
#define MPI_T_BIND_MPI_WIN 8
#define MPI_T_BIND_MPI_MESSAGE 9
#define MPI_T_BIND_MPI_INFO 10
#define MPI_T_BIND_MPI_SESSION 11
#define MPI_T_SCOPE_CONSTANT 0
#define MPI_T_SCOPE_READONLY 1
#define MPI_T_SCOPE_LOCAL 2
#define MPI_T_SCOPE_GROUP 3
#define MPI_T_SCOPE_GROUP_EQ 4
#define MPI_T_SCOPE_ALL 5
#define MPI_T_SCOPE_ALL_EQ 6

/* the tool information interface: performance variables */
typedef struct MPI_T_pvar_session_s *MPI_T_pvar_session;
typedef struct MPI_T_pvar_handle_s *MPI_T_pvar_handle;
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
#define MPI_T_PVAR_CLASS_STATE 0
#define MPI_T_PVAR_CLASS_LEVEL 1
#define MPI_T_PVAR_CLASS_SIZE 2
#define MPI_T_PVAR_CLASS_PERCENTAGE 3
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 4
#define MPI_T_PVAR_CLASS_LOWWATERMARK 5
#define MPI_T_PVAR_CLASS_COUNTER 6
#define MPI_T_PVAR_CLASS_AGGREGATE 7
#define MPI_T_PVAR_CLASS_TIMER 8
#define MPI_T_PVAR_CLASS_GENERIC 9

/* the tool information interface: events and their sources (MPI 4.1, section 15.3.8) */
typedef struct MPI_T_event_registration_s *MPI_T_event_registration;
typedef struct MPI_T_event_instance_s *MPI_T_event_instance;
typedef enum MPI_T_cb_safety {
	MPI_T_CB_REQUIRE_NONE = 0,
	MPI_T_CB_REQUIRE_MPI_RESTRICTED,
	MPI_T_CB_REQUIRE_THREAD_SAFE,
	MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order {
	MPI_T_SOURCE_ORDERED = 0,
	MPI_T_SOURCE_UNORDERED
} MPI_T_source_order;

/* predefined attribute keyvals */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12

/* windows */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ---- datatype constructors -------------------------------------------- */

#define MPI_COMBINER_NAMED 1
#define MPI_COMBINER_DUP 2
#define MPI_COMBINER_CONTIGUOUS 3
#define MPI_COMBINER_VECTOR 4
#define MPI_COMBINER_HVECTOR_INTEGER 5
#define MPI_COMBINER_HVECTOR 6
#define MPI_COMBINER_INDEXED 7
#define MPI_COMBINER_HINDEXED_INTEGER 8
#define MPI_COMBINER_HINDEXED 9
#define MPI_COMBINER_INDEXED_BLOCK 10
#define MPI_COMBINER_STRUCT_INTEGER 11
#define MPI_COMBINER_STRUCT 12
#define MPI_COMBINER_SUBARRAY 13
#define MPI_COMBINER_DARRAY 14
#define MPI_COMBINER_F90_REAL 15
#define MPI_COMBINER_F90_COMPLEX 16
#define MPI_COMBINER_F90_INTEGER 17
#define MPI_COMBINER_RESIZED 18
#define MPI_COMBINER_HINDEXED_BLOCK 19
#define MPI_COMBINER_VALUE_INDEX 20

#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57

/* MPI_Type_create_darray (MPI 3.1, section 4.1.4) */
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* MPI_Type_match_size (MPI 3.1, section 17.1.9) */
#define MPI_TYPECLASS_REAL 1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* ---- error classes (MPI-3.1 table 8.1, in its order) ------------------- */

#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_BASE 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_SPAWN 26
#define MPI_ERR_PORT 27
#define MPI_ERR_SERVICE 28
#define MPI_ERR_NAME 29
#define MPI_ERR_WIN 30
#define MPI_ERR_SIZE 31
#define MPI_ERR_DISP 32
#define MPI_ERR_INFO 33
#define MPI_ERR_LOCKTYPE 34
#define MPI_ERR_ASSERT 35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC 37
#define MPI_ERR_RMA_RANGE 38
#define MPI_ERR_RMA_ATTACH 39
#define MPI_ERR_RMA_SHARED 40
#define MPI_ERR_RMA_FLAVOR 41
#define MPI_ERR_FILE 42
#define MPI_ERR_NOT_SAME 43
#define MPI_ERR_AMODE 44
#define MPI_ERR_UNSUPPORTED_DATAREP 45
#define MPI_ERR_UNSUPPORTED_OPERATION 46
#define MPI_ERR_NO_SUCH_FILE 47
#define MPI_ERR_FILE_EXISTS 48
#define MPI_ERR_BAD_FILE 49
#define MPI_ERR_ACCESS 50
#define MPI_ERR_NO_SPACE 51
#define MPI_ERR_QUOTA 52
#define MPI_ERR_READ_ONLY 53
#define MPI_ERR_FILE_IN_USE 54
#define MPI_ERR_DUP_DATAREP 55
#define MPI_ERR_CONVERSION 56
#define MPI_ERR_IO 57
#define MPI_T_ERR_MEMORY 58
#define MPI_T_ERR_NOT_INITIALIZED 59
#define MPI_T_ERR_CANNOT_INIT 60
#define MPI_T_ERR_INVALID_INDEX 61
#define MPI_T_ERR_INVALID_ITEM 62
#define MPI_T_ERR_INVALID_HANDLE 63
#define MPI_T_ERR_OUT_OF_HANDLES 64
#define MPI_T_ERR_OUT_OF_SESSIONS 65
#define MPI_T_ERR_INVALID_SESSION 66
#define MPI_T_ERR_CVAR_SET_NOT_NOW 67
#define MPI_T_ERR_CVAR_SET_NEVER 68
#define MPI_T_ERR_PVAR_NO_STARTSTOP 69
#define MPI_T_ERR_PVAR_NO_WRITE 70
#define MPI_T_ERR_PVAR_NO_ATOMIC 71
#define MPI_T_ERR_INVALID_NAME 72
#define MPI_T_ERR_INVALID 73
/* MPI 4.1, section 9.4, table 9.1 */
#define MPI_ERR_SESSION 74
/* MPI 4.1, section 15.3.10 */
#define MPI_T_ERR_NOT_SUPPORTED 75
#define MPI_ERR_PROC_ABORTED 76
#define MPI_ERR_VALUE_TOO_LARGE 77
#define MPI_ERR_ERRHANDLER 78
#define MPI_ERR_LASTCODE 78

/* ---- callback types ---------------------------------------------------- */

typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state);

typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);

typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);

typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val, void *extra_state);
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance, MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count, MPI_T_event_registration event_registration, int source_index, MPI_T_cb_safety cb_safety, void *user_data);

typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* deprecated names (MPI-3.1 chapter 15) */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

/* the predefined attribute callbacks */
int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_WIN_DUP_FN(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);
int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state);
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int type_keyval, void *attribute_val, void *extra_state);
int MPI_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);

/* ---- the profiling interface: declare MPI_X and PMPI_X alike ------------ */

#define SHMPI_DECLARE(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* environment and runtime */
SHMPI_DECLARE(int, Init, (int *argc, char ***argv))
SHMPI_DECLARE(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
SHMPI_DECLARE(int, Initialized, (int *flag))
SHMPI_DECLARE(int, Finalize, (void))
SHMPI_DECLARE(int, Finalized, (int *flag))
SHMPI_DECLARE(int, Abort, (MPI_Comm comm, int errorcode))
SHMPI_DECLARE(int, Query_thread, (int *provided))
SHMPI_DECLARE(int, Is_thread_main, (int *flag))
SHMPI_DECLARE(int, Get_version, (int *version, int *subversion))
SHMPI_DECLARE(int, Get_library_version, (char *version, int *resultlen))
SHMPI_DECLARE(int, Get_processor_name, (char *name, int *resultlen))
SHMPI_DECLARE(int, Get_hw_resource_info, (MPI_Info *hw_info))
SHMPI_DECLARE(double, Wtime, (void))
SHMPI_DECLARE(double, Wtick, (void))

/* groups */
SHMPI_DECLARE(int, Group_size, (MPI_Group group, int *size))
SHMPI_DECLARE(int, Group_rank, (MPI_Group group, int *rank))
SHMPI_DECLARE(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
SHMPI_DECLARE(int, Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
SHMPI_DECLARE(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
SHMPI_DECLARE(int, Group_free, (MPI_Group *group))

/* communicators */
SHMPI_DECLARE(int, Comm_rank, (MPI_Comm comm, int *rank))
SHMPI_DECLARE(int, Comm_size, (MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Comm_group, (MPI_Comm comm, MPI_Group *group))
SHMPI_DECLARE(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
SHMPI_DECLARE(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
SHMPI_DECLARE(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Comm_free, (MPI_Comm *comm))
SHMPI_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
SHMPI_DECLARE(int, Comm_test_inter, (MPI_Comm comm, int *flag))
SHMPI_DECLARE(int, Comm_remote_size, (MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
SHMPI_DECLARE(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag, MPI_Comm *newintercomm))
SHMPI_DECLARE(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
SHMPI_DECLARE(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
SHMPI_DECLARE(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
SHMPI_DECLARE(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval, void *extra_state))
SHMPI_DECLARE(int, Comm_free_keyval, (int *comm_keyval))
SHMPI_DECLARE(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
SHMPI_DECLARE(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
SHMPI_DECLARE(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
SHMPI_DECLARE(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))

/* process topologies */
SHMPI_DECLARE(int, Dims_create, (int nnodes, int ndims, int dims[]))
SHMPI_DECLARE(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart))
SHMPI_DECLARE(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
SHMPI_DECLARE(int, Cartdim_get, (MPI_Comm comm, int *ndims))
SHMPI_DECLARE(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
SHMPI_DECLARE(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
SHMPI_DECLARE(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
SHMPI_DECLARE(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
SHMPI_DECLARE(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
SHMPI_DECLARE(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph))
SHMPI_DECLARE(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
SHMPI_DECLARE(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
SHMPI_DECLARE(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
SHMPI_DECLARE(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
SHMPI_DECLARE(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
SHMPI_DECLARE(int, Topo_test, (MPI_Comm comm, int *status))
SHMPI_DECLARE(int, Dist_graph_create_adjacent, (MPI_Comm comm_old, int indegree, const int sources[], const int *sourceweights, int outdegree, const int destinations[], const int *destweights, MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
SHMPI_DECLARE(int, Dist_graph_create, (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[], const int *weights, MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
SHMPI_DECLARE(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
SHMPI_DECLARE(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int *sourceweights, int maxoutdegree, int destinations[], int *destweights))
SHMPI_DECLARE(int, Neighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SHMPI_DECLARE(int, Ineighbor_allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoallw, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoallw_init, (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request))
/* the large-count forms (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SHMPI_DECLARE(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* info */
SHMPI_DECLARE(int, Info_create, (MPI_Info *info))
SHMPI_DECLARE(int, Info_set, (MPI_Info info, const char *key, const char *value))
SHMPI_DECLARE(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
SHMPI_DECLARE(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
SHMPI_DECLARE(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
SHMPI_DECLARE(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
SHMPI_DECLARE(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
SHMPI_DECLARE(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
SHMPI_DECLARE(int, Info_delete, (MPI_Info info, const char *key))
SHMPI_DECLARE(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
SHMPI_DECLARE(int, Info_free, (MPI_Info *info))

/* memory */
SHMPI_DECLARE(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
SHMPI_DECLARE(int, Free_mem, (void *base))

/* collectives */
SHMPI_DECLARE(int, Barrier, (MPI_Comm comm))
SHMPI_DECLARE(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SHMPI_DECLARE(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))

/* nonblocking collectives */
SHMPI_DECLARE(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))

/* persistent collectives (MPI 4.1, section 6.13) */
SHMPI_DECLARE(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* the large-count forms of the collectives (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm))
SHMPI_DECLARE(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
SHMPI_DECLARE(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
SHMPI_DECLARE(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* point-to-point */
SHMPI_DECLARE(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Buffer_attach, (void *buffer, int size))
SHMPI_DECLARE(int, Buffer_detach, (void *buffer_addr, int *size))
SHMPI_DECLARE(int, Buffer_attach_c, (void *buffer, MPI_Count size))
SHMPI_DECLARE(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
SHMPI_DECLARE(int, Buffer_flush, (void))
SHMPI_DECLARE(int, Buffer_iflush, (MPI_Request *request))
SHMPI_DECLARE(int, Comm_attach_buffer, (MPI_Comm comm, void *buffer, int size))
SHMPI_DECLARE(int, Comm_attach_buffer_c, (MPI_Comm comm, void *buffer, MPI_Count size))
SHMPI_DECLARE(int, Comm_detach_buffer, (MPI_Comm comm, void *buffer_addr, int *size))
SHMPI_DECLARE(int, Comm_detach_buffer_c, (MPI_Comm comm, void *buffer_addr, MPI_Count *size))
SHMPI_DECLARE(int, Comm_flush_buffer, (MPI_Comm comm))
SHMPI_DECLARE(int, Comm_iflush_buffer, (MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Session_attach_buffer, (MPI_Session session, void *buffer, int size))
SHMPI_DECLARE(int, Session_attach_buffer_c, (MPI_Session session, void *buffer, MPI_Count size))
SHMPI_DECLARE(int, Session_detach_buffer, (MPI_Session session, void *buffer_addr, int *size))
SHMPI_DECLARE(int, Session_detach_buffer_c, (MPI_Session session, void *buffer_addr, MPI_Count *size))
SHMPI_DECLARE(int, Session_flush_buffer, (MPI_Session session))
SHMPI_DECLARE(int, Session_iflush_buffer, (MPI_Session session, MPI_Request *request))
SHMPI_DECLARE(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
SHMPI_DECLARE(int, Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
SHMPI_DECLARE(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
SHMPI_DECLARE(int, Imrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
SHMPI_DECLARE(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
SHMPI_DECLARE(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
SHMPI_DECLARE(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
/* point-to-point: MPI_Isendrecv(_replace) and the large-count forms (MPI 4.1, sections 2.5.8 and 3.10) */
SHMPI_DECLARE(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
SHMPI_DECLARE(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
SHMPI_DECLARE(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request *request))
SHMPI_DECLARE(int, Mrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
SHMPI_DECLARE(int, Imrecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
SHMPI_DECLARE(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
SHMPI_DECLARE(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))

/* requests */
SHMPI_DECLARE(int, Wait, (MPI_Request *request, MPI_Status *status))
SHMPI_DECLARE(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
SHMPI_DECLARE(int, Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Request_get_status_all, (int count, const MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Request_get_status_any, (int count, const MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
SHMPI_DECLARE(int, Request_get_status_some, (int incount, const MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses))
SHMPI_DECLARE(int, Request_free, (MPI_Request *request))
SHMPI_DECLARE(int, Cancel, (MPI_Request *request))
SHMPI_DECLARE(int, Test_cancelled, (const MPI_Status *status, int *flag))
SHMPI_DECLARE(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
SHMPI_DECLARE(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))
SHMPI_DECLARE(int, Status_set_cancelled, (MPI_Status *status, int flag))
SHMPI_DECLARE(int, Status_get_source, (const MPI_Status *status, int *source))
SHMPI_DECLARE(int, Status_get_tag, (const MPI_Status *status, int *tag))
SHMPI_DECLARE(int, Status_get_error, (const MPI_Status *status, int *error))
SHMPI_DECLARE(int, Status_set_source, (MPI_Status *status, int source))
SHMPI_DECLARE(int, Status_set_tag, (MPI_Status *status, int tag))
SHMPI_DECLARE(int, Status_set_error, (MPI_Status *status, int error))
SHMPI_DECLARE(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn, MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request))
SHMPI_DECLARE(int, Grequest_complete, (MPI_Request request))
SHMPI_DECLARE(int, Start, (MPI_Request *request))
SHMPI_DECLARE(int, Startall, (int count, MPI_Request array_of_requests[]))

/* partitioned point-to-point communication (MPI 4.1, chapter 4) */
SHMPI_DECLARE(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
SHMPI_DECLARE(int, Pready, (int partition, MPI_Request request))
SHMPI_DECLARE(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
SHMPI_DECLARE(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
SHMPI_DECLARE(int, Parrived, (MPI_Request request, int partition, int *flag))

/* datatypes */
SHMPI_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_subarray, (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_darray, (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type))
SHMPI_DECLARE(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_commit, (MPI_Datatype *datatype))
SHMPI_DECLARE(int, Type_free, (MPI_Datatype *datatype))
SHMPI_DECLARE(int, Type_size, (MPI_Datatype datatype, int *size))
SHMPI_DECLARE(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
SHMPI_DECLARE(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
SHMPI_DECLARE(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
SHMPI_DECLARE(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
SHMPI_DECLARE(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
SHMPI_DECLARE(int, Type_get_envelope, (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner))
SHMPI_DECLARE(int, Type_get_contents, (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
SHMPI_DECLARE(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
SHMPI_DECLARE(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
SHMPI_DECLARE(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval, void *extra_state))
SHMPI_DECLARE(int, Type_free_keyval, (int *type_keyval))
SHMPI_DECLARE(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
SHMPI_DECLARE(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
SHMPI_DECLARE(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position, MPI_Comm comm))
SHMPI_DECLARE(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype, MPI_Comm comm))
SHMPI_DECLARE(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
SHMPI_DECLARE(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position))
SHMPI_DECLARE(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype))
SHMPI_DECLARE(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))
SHMPI_DECLARE(int, Get_address, (const void *location, MPI_Aint *address))
SHMPI_DECLARE(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
SHMPI_DECLARE(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))
SHMPI_DECLARE(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
SHMPI_DECLARE(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
/* datatypes: the large-count forms (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[], const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count array_of_gsizes[], const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype))
SHMPI_DECLARE(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
SHMPI_DECLARE(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
SHMPI_DECLARE(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
SHMPI_DECLARE(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses, MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner))
SHMPI_DECLARE(int, Type_get_contents_c, (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]))
SHMPI_DECLARE(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
SHMPI_DECLARE(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm))
SHMPI_DECLARE(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size))
SHMPI_DECLARE(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position))
SHMPI_DECLARE(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype))
SHMPI_DECLARE(int, Pack_external_size_c, (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size))

/* reduction ops */
SHMPI_DECLARE(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
SHMPI_DECLARE(int, Op_free, (MPI_Op *op))
SHMPI_DECLARE(int, Op_commutative, (MPI_Op op, int *commute))
SHMPI_DECLARE(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))
/* reduction ops: the large-count forms (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
SHMPI_DECLARE(int, Reduce_local_c, (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op))

/* windows */
SHMPI_DECLARE(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
SHMPI_DECLARE(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
SHMPI_DECLARE(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
SHMPI_DECLARE(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
SHMPI_DECLARE(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
SHMPI_DECLARE(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
SHMPI_DECLARE(int, Win_detach, (MPI_Win win, const void *base))
SHMPI_DECLARE(int, Win_free, (MPI_Win *win))
SHMPI_DECLARE(int, Win_get_group, (MPI_Win win, MPI_Group *group))
SHMPI_DECLARE(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
SHMPI_DECLARE(int, Win_delete_attr, (MPI_Win win, int win_keyval))
SHMPI_DECLARE(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval, void *extra_state))
SHMPI_DECLARE(int, Win_free_keyval, (int *win_keyval))
SHMPI_DECLARE(int, Win_set_info, (MPI_Win win, MPI_Info info))
SHMPI_DECLARE(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
SHMPI_DECLARE(int, Win_set_name, (MPI_Win win, const char *win_name))
SHMPI_DECLARE(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
SHMPI_DECLARE(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
SHMPI_DECLARE(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Win_call_errhandler, (MPI_Win win, int errorcode))
/* windows: the large-count forms (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
SHMPI_DECLARE(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
SHMPI_DECLARE(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
SHMPI_DECLARE(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr))

/* one-sided communication */
SHMPI_DECLARE(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
SHMPI_DECLARE(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
SHMPI_DECLARE(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
SHMPI_DECLARE(int, Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
SHMPI_DECLARE(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win))
SHMPI_DECLARE(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win))
SHMPI_DECLARE(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Rget_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
/* one-sided communication: the large-count forms (MPI 4.1, section 2.5.8) */
SHMPI_DECLARE(int, Put_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
SHMPI_DECLARE(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
SHMPI_DECLARE(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
SHMPI_DECLARE(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
SHMPI_DECLARE(int, Rput_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
SHMPI_DECLARE(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))

/* one-sided synchronization */
SHMPI_DECLARE(int, Win_fence, (int assert, MPI_Win win))
SHMPI_DECLARE(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
SHMPI_DECLARE(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
SHMPI_DECLARE(int, Win_complete, (MPI_Win win))
SHMPI_DECLARE(int, Win_wait, (MPI_Win win))
SHMPI_DECLARE(int, Win_test, (MPI_Win win, int *flag))
SHMPI_DECLARE(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
SHMPI_DECLARE(int, Win_unlock, (int rank, MPI_Win win))
SHMPI_DECLARE(int, Win_lock_all, (int assert, MPI_Win win))
SHMPI_DECLARE(int, Win_unlock_all, (MPI_Win win))
SHMPI_DECLARE(int, Win_flush, (int rank, MPI_Win win))
SHMPI_DECLARE(int, Win_flush_all, (MPI_Win win))
SHMPI_DECLARE(int, Win_flush_local, (int rank, MPI_Win win))
SHMPI_DECLARE(int, Win_flush_local_all, (MPI_Win win))
SHMPI_DECLARE(int, Win_sync, (MPI_Win win))

/* errors and error handlers */
SHMPI_DECLARE(int, Error_string, (int errorcode, char *string, int *resultlen))
SHMPI_DECLARE(int, Error_class, (int errorcode, int *errorclass))
SHMPI_DECLARE(int, Comm_create_errhandler, (MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
SHMPI_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
SHMPI_DECLARE(int, Errhandler_free, (MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Add_error_class, (int *errorclass))
SHMPI_DECLARE(int, Add_error_code, (int errorclass, int *errorcode))
SHMPI_DECLARE(int, Add_error_string, (int errorcode, const char *string))
SHMPI_DECLARE(int, Remove_error_class, (int errorclass))
SHMPI_DECLARE(int, Remove_error_code, (int errorcode))
SHMPI_DECLARE(int, Remove_error_string, (int errorcode))
SHMPI_DECLARE(int, Session_create_errhandler, (MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
SHMPI_DECLARE(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
SHMPI_DECLARE(int, Session_call_errhandler, (MPI_Session session, int errorcode))

/* the Sessions Model (MPI 4.1, section 11.3) */
SHMPI_DECLARE(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
SHMPI_DECLARE(int, Session_finalize, (MPI_Session *session))
SHMPI_DECLARE(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
SHMPI_DECLARE(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
SHMPI_DECLARE(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len, char *pset_name))
SHMPI_DECLARE(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
SHMPI_DECLARE(int, Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup))
SHMPI_DECLARE(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm))
SHMPI_DECLARE(int, Intercomm_create_from_groups, (MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm))

/* the profiling interface */
SHMPI_DECLARE(int, Pcontrol, (const int level, ...))

/* deprecated communicator attribute calls (MPI-3.1 chapter 15) */
SHMPI_DECLARE(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state))
SHMPI_DECLARE(int, Keyval_free, (int *keyval))
SHMPI_DECLARE(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
SHMPI_DECLARE(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
SHMPI_DECLARE(int, Attr_delete, (MPI_Comm comm, int keyval))

/* handle and status conversions between C and Fortran (MPI-3.1 section 17.2) */
SHMPI_DECLARE(MPI_Fint, Comm_c2f, (MPI_Comm comm))
SHMPI_DECLARE(MPI_Comm, Comm_f2c, (MPI_Fint comm))
SHMPI_DECLARE(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
SHMPI_DECLARE(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
SHMPI_DECLARE(MPI_Fint, Group_c2f, (MPI_Group group))
SHMPI_DECLARE(MPI_Group, Group_f2c, (MPI_Fint group))
SHMPI_DECLARE(MPI_Fint, Info_c2f, (MPI_Info info))
SHMPI_DECLARE(MPI_Info, Info_f2c, (MPI_Fint info))
SHMPI_DECLARE(MPI_Fint, Message_c2f, (MPI_Message message))
SHMPI_DECLARE(MPI_Message, Message_f2c, (MPI_Fint message))
SHMPI_DECLARE(MPI_Fint, Op_c2f, (MPI_Op op))
SHMPI_DECLARE(MPI_Op, Op_f2c, (MPI_Fint op))
SHMPI_DECLARE(MPI_Fint, Request_c2f, (MPI_Request request))
SHMPI_DECLARE(MPI_Request, Request_f2c, (MPI_Fint request))
SHMPI_DECLARE(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
SHMPI_DECLARE(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
SHMPI_DECLARE(MPI_Fint, Win_c2f, (MPI_Win win))
SHMPI_DECLARE(MPI_Win, Win_f2c, (MPI_Fint win))
SHMPI_DECLARE(MPI_Fint, Session_c2f, (MPI_Session session))
SHMPI_DECLARE(MPI_Session, Session_f2c, (MPI_Fint session))
SHMPI_DECLARE(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
SHMPI_DECLARE(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
SHMPI_DECLARE(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
SHMPI_DECLARE(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
SHMPI_DECLARE(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))
SHMPI_DECLARE(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))

/* the tool information interface: control variables */
SHMPI_DECLARE(int, T_init_thread, (int required, int *provided))
SHMPI_DECLARE(int, T_finalize, (void))
SHMPI_DECLARE(int, T_cvar_get_num, (int *num_cvar))
SHMPI_DECLARE(int, T_cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope))
SHMPI_DECLARE(int, T_cvar_get_index, (const char *name, int *cvar_index))
SHMPI_DECLARE(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count))
SHMPI_DECLARE(int, T_cvar_handle_free, (MPI_T_cvar_handle *handle))
SHMPI_DECLARE(int, T_cvar_read, (MPI_T_cvar_handle handle, void *buf))
SHMPI_DECLARE(int, T_cvar_write, (MPI_T_cvar_handle handle, const void *buf))

/* the tool information interface: enumerations, performance variables, categories */
SHMPI_DECLARE(int, T_enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
SHMPI_DECLARE(int, T_enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name, int *name_len))
SHMPI_DECLARE(int, T_pvar_get_num, (int *num_pvar))
SHMPI_DECLARE(int, T_pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous, int *atomic))
SHMPI_DECLARE(int, T_pvar_get_index, (const char *name, int var_class, int *pvar_index))
SHMPI_DECLARE(int, T_pvar_session_create, (MPI_T_pvar_session *session))
SHMPI_DECLARE(int, T_pvar_session_free, (MPI_T_pvar_session *session))
SHMPI_DECLARE(int, T_pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count))
SHMPI_DECLARE(int, T_pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
SHMPI_DECLARE(int, T_pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SHMPI_DECLARE(int, T_pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SHMPI_DECLARE(int, T_pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
SHMPI_DECLARE(int, T_pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf))
SHMPI_DECLARE(int, T_pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
SHMPI_DECLARE(int, T_pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
SHMPI_DECLARE(int, T_category_get_num, (int *num_cat))
SHMPI_DECLARE(int, T_category_get_info, (int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars, int *num_pvars, int *num_categories))
SHMPI_DECLARE(int, T_category_get_index, (const char *name, int *cat_index))
SHMPI_DECLARE(int, T_category_get_cvars, (int cat_index, int len, int indices[]))
SHMPI_DECLARE(int, T_category_get_pvars, (int cat_index, int len, int indices[]))
SHMPI_DECLARE(int, T_category_get_categories, (int cat_index, int len, int indices[]))
SHMPI_DECLARE(int, T_category_changed, (int *stamp))
SHMPI_DECLARE(int, T_category_get_num_events, (int cat_index, int *num_events))
SHMPI_DECLARE(int, T_category_get_events, (int cat_index, int len, int indices[]))

/* the tool information interface: events and their sources */
SHMPI_DECLARE(int, T_source_get_num, (int *num_sources))
SHMPI_DECLARE(int, T_source_get_info, (int source_index, char *name, int *name_len, char *desc, int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info))
SHMPI_DECLARE(int, T_source_get_timestamp, (int source_index, MPI_Count *timestamp))
SHMPI_DECLARE(int, T_event_get_num, (int *num_events))
SHMPI_DECLARE(int, T_event_get_info, (int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind))
SHMPI_DECLARE(int, T_event_get_index, (const char *name, int *event_index))
SHMPI_DECLARE(int, T_event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration))
SHMPI_DECLARE(int, T_event_handle_set_info, (MPI_T_event_registration event_registration, MPI_Info info))
SHMPI_DECLARE(int, T_event_handle_get_info, (MPI_T_event_registration event_registration, MPI_Info *info_used))
SHMPI_DECLARE(int, T_event_register_callback, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function))
SHMPI_DECLARE(int, T_event_callback_set_info, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info))
SHMPI_DECLARE(int, T_event_callback_get_info, (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info *info_used))
SHMPI_DECLARE(int, T_event_handle_free, (MPI_T_event_registration event_registration, void *user_data, MPI_T_event_free_cb_function free_cb_function))
SHMPI_DECLARE(int, T_event_set_dropped_handler, (MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function dropped_cb_function))
SHMPI_DECLARE(int, T_event_read, (MPI_T_event_instance event_instance, int element_index, void *buffer))
SHMPI_DECLARE(int, T_event_copy, (MPI_T_event_instance event_instance, void *buffer))
SHMPI_DECLARE(int, T_event_get_timestamp, (MPI_T_event_instance event_instance, MPI_Count *event_timestamp))
SHMPI_DECLARE(int, T_event_get_source, (MPI_T_event_instance event_instance, int *source_index))

#undef SHMPI_DECLARE

#ifdef __cplusplus
}
#endif

#endif
