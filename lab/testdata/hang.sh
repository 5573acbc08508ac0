#!/bin/sh
# Starts a child in its group and one in a session of its own, reads
# init, and never answers.
sleep 300 &
setsid sleep 300 &
read -r line
sleep 300
