HTTP/1.1 200 OK
Transfer-Encoding: gzip, chunked

2
abc
