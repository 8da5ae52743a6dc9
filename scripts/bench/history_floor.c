/*
 * history_floor.c — what SQLite alone costs for the rows the history writes per skill call, so
 * scripts/bench-history.sh can show the floor under the Swift figures in the same run. Same schema, pragmas
 * and statements as Sources/SkillStore (version 3): per call an assistant message and a tool message, each
 * one BEGIN IMMEDIATE transaction with the session's last_active_ms update; "with rows" adds what recording
 * writes (the call's skill and idempotency key in the assistant message's tool_calls; the call's whole row,
 * keyed by a hash as CallKey makes it, with the one context key it changed in its context column).
 * Calls go to sessions of 100 calls, as in the Swift benchmark. Modes alternate in 10 rounds. Prints CPU µs
 * per call.
 *
 * With "batch" as third argument the file is opened through the skillhost-wal-batch VFS, as SkillStore
 * opens it (Sources/CSQLiteBatch: one pwrite per WAL transaction); without, through SQLite's own.
 *
 * With "v3" as fourth argument it writes what version 3 wrote instead (4 KiB pages, the context key upserted into
 * session_context), to compare.
 *
 * usage: history_floor DATABASE_PATH CALLS [batch|default] [v3]   (the file and its -wal/-shm are replaced)
 */
#include <sqlite3.h>
#include "skillhost_sqlite_batch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
static double cpu(void){struct rusage u;getrusage(RUSAGE_SELF,&u);return u.ru_utime.tv_sec*1e6+u.ru_utime.tv_usec+u.ru_stime.tv_sec*1e6+u.ru_stime.tv_usec;}
#define X(s) do{ if(sqlite3_exec(db,s,0,0,&err)){fprintf(stderr,"%s: %s\n",s,err);exit(1);} }while(0)
static sqlite3*db; static char*err;
static sqlite3_stmt*P(const char*s){sqlite3_stmt*st; if(sqlite3_prepare_v2(db,s,-1,&st,0)){fprintf(stderr,"%s\n",sqlite3_errmsg(db));exit(1);} return st;}
static void R(sqlite3_stmt*s){int c=sqlite3_step(s); if(c!=SQLITE_DONE&&c!=SQLITE_ROW){fprintf(stderr,"step %s\n",sqlite3_errmsg(db));exit(1);} sqlite3_reset(s);}
int main(int argc,char**argv){
  const char*path=argv[1]; int n=atoi(argv[2]);
  unlink(path); char b[512]; snprintf(b,512,"%s-wal",path); unlink(b); snprintf(b,512,"%s-shm",path); unlink(b);
  int batch=argc>3&&strcmp(argv[3],"batch")==0;
  if(batch&&skillhost_sqlite_batch_register()!=SQLITE_OK){fprintf(stderr,"cannot register the batch VFS\n");exit(1);}
  if(sqlite3_open_v2(path,&db,SQLITE_OPEN_READWRITE|SQLITE_OPEN_CREATE,batch?SKILLHOST_SQLITE_BATCH_VFS:NULL)){fprintf(stderr,"cannot open %s\n",path);exit(1);}
  int v3=argc>4&&strcmp(argv[4],"v3")==0;
  if(!v3) X("PRAGMA page_size=2048");
  X("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
  X("CREATE TABLE sessions(id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '', created_ms INTEGER NOT NULL, last_active_ms INTEGER NOT NULL);"
    "CREATE INDEX sessions_last_active ON sessions(last_active_ms);"
    "CREATE TABLE messages(session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, position INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL, tool_calls TEXT, tool_call_id TEXT, created_ms INTEGER NOT NULL, PRIMARY KEY(session_id, position)) WITHOUT ROWID;"
    "CREATE TABLE skill_calls(id INTEGER PRIMARY KEY, call_id TEXT NOT NULL, session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, message_position INTEGER, skill_id TEXT NOT NULL, plugin_version TEXT, plugin_sha256 TEXT, arguments TEXT NOT NULL, status TEXT NOT NULL, result TEXT, summary TEXT, error_kind TEXT, error TEXT, started_ms INTEGER NOT NULL, duration_ms REAL, idempotency_key TEXT, worker_pid INTEGER, context TEXT);"
    "CREATE INDEX skill_calls_session_key ON skill_calls(session_id, idempotency_key);"
    "CREATE TABLE session_context(session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT NOT NULL, updated_ms INTEGER NOT NULL, PRIMARY KEY(session_id,key)) WITHOUT ROWID;"
    "");
  sqlite3_stmt *begin=P("BEGIN IMMEDIATE"),*commit=P("COMMIT");
  sqlite3_stmt *msg=P("INSERT INTO messages VALUES(?6,?1,?2,?3,?4,?5,0)");
  sqlite3_stmt *ses=P("UPDATE sessions SET last_active_ms=?1, title = CASE WHEN title = '' THEN 'x' ELSE title END WHERE id=?2");
  sqlite3_stmt *newSession=P("INSERT INTO sessions VALUES(?,'','',0,0)");
  sqlite3_stmt *ins=P("INSERT INTO skill_calls(call_id,session_id,message_position,skill_id,plugin_version,plugin_sha256,arguments,status,result,summary,error_kind,error,started_ms,duration_ms,idempotency_key,worker_pid,context) VALUES('c1',?4,?1,'bench.echo',NULL,NULL,'{\"text\":\"hello\"}','succeeded',?2,'12:00',NULL,NULL,1,0.1,?3,NULL,?5)");
  sqlite3_stmt *ctx=P("INSERT INTO session_context VALUES(?2,'counter',?1,0) ON CONFLICT(session_id,key) DO UPDATE SET value=excluded.value, updated_ms=excluded.updated_ms");
  const char*res="{\"date\":\"2026-11-30\",\"time\":\"12:00\",\"timezone\":\"Europe/Paris\",\"weekday\":\"Monday\"}";
  double t[2]={0,0}; int pos=0, calls=0;
  for(int round=0;round<10;round++) for(int mode=0;mode<2;mode++){
    double c0=cpu();
    for(int i=0;i<n/10;i++){
      char session[32]; snprintf(session,32,"bench-%d",calls/100);
      if(calls++%100==0){ sqlite3_bind_text(newSession,1,session,-1,SQLITE_TRANSIENT); R(newSession); }
      sqlite3_bind_text(msg,6,session,-1,SQLITE_TRANSIENT); sqlite3_bind_text(ses,2,session,-1,SQLITE_TRANSIENT);
      sqlite3_bind_text(ins,4,session,-1,SQLITE_TRANSIENT); sqlite3_bind_text(ctx,2,session,-1,SQLITE_TRANSIENT);
      unsigned long long hash=0xcbf29ce484222325ULL; for(int b=0;b<8;b++){hash^=(pos>>(8*b))&0xff; hash*=0x100000001b3ULL;}
      char key[80]; snprintf(key,80,"%s/bench.echo/%016llx",session,hash);
      char calls[256]; snprintf(calls,256,mode?"[{\"id\":\"c1\",\"name\":\"bench_echo\",\"arguments\":\"{}\",\"skill_id\":\"bench.echo\",\"idempotency_key\":\"%s\"}]":"[{\"id\":\"c1\",\"name\":\"bench_echo\",\"arguments\":\"{}\"}]",key);
      R(begin); sqlite3_bind_int(msg,1,pos); sqlite3_bind_text(msg,2,"assistant",-1,SQLITE_STATIC); sqlite3_bind_text(msg,3,"",-1,SQLITE_STATIC); sqlite3_bind_text(msg,4,calls,-1,SQLITE_TRANSIENT); sqlite3_bind_null(msg,5); R(msg);
      sqlite3_bind_int(ses,1,pos); R(ses);
      int asking=pos;
      R(commit); pos++;
      R(begin); sqlite3_bind_int(msg,1,pos); sqlite3_bind_text(msg,2,"tool",-1,SQLITE_STATIC); sqlite3_bind_text(msg,3,res,-1,SQLITE_STATIC); sqlite3_bind_null(msg,4); sqlite3_bind_text(msg,5,"c1",-1,SQLITE_STATIC); R(msg);
      sqlite3_bind_int(ses,1,pos); R(ses);
      if(mode){ sqlite3_bind_int(ins,1,asking); sqlite3_bind_text(ins,2,res,-1,SQLITE_STATIC); sqlite3_bind_text(ins,3,key,-1,SQLITE_TRANSIENT); char v[32]; snprintf(v,32,"%d",i); char c[96]; snprintf(c,96,"{\"updated_ms\":1764590000000,\"values\":{\"counter\":\"%d\"}}",i);
        if(v3){ sqlite3_bind_null(ins,5); R(ins); sqlite3_bind_text(ctx,1,v,-1,SQLITE_TRANSIENT); R(ctx); }
        else { sqlite3_bind_text(ins,5,c,-1,SQLITE_TRANSIENT); R(ins); } }
      R(commit); pos++;
    }
    t[mode]+=cpu()-c0;
  }
  printf("  sqlite alone (C, %s VFS%s): messages only cpu %.1f µs/call, with the call rows %.1f µs/call: rows add %.1f µs/call\n", batch?"batch":"default", v3?", version 3 rows":"", t[0]/n, t[1]/n, (t[1]-t[0])/n);
}
