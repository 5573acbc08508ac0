# Starts a child that would outlive it, then never answers.
import subprocess, sys, time
subprocess.Popen(["sleep", "300"])
sys.stdin.readline()
time.sleep(300)
