#!/bin/sh
echo started
while :; do sleep 1; done
