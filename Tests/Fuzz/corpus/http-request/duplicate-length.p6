POST / HTTP/1.1
Host: x
Content-Length: 2
Content-Length: 2, 2

ok