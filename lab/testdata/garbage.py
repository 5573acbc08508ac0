# Answers init with a line that is not JSON, then waits.
import sys, time
sys.stdin.readline()
print("hello, I am not JSON", flush=True)
time.sleep(300)
