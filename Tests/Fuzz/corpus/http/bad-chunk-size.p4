HTTP/1.1 200 OK
Transfer-Encoding: chunked

zz
abc
0

