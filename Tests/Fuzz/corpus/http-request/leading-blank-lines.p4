

GET / HTTP/1.1
Host: x

