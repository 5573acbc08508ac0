package brokers

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// redisWorker opens what a Redis worker process (WorkerMain) works with —
// the Redis at cfg.URL, pinged, and the ledger — then says ready and
// waits for the start. The caller closes both.
func redisWorker(ctx context.Context, cfg *workerConfig, w *workerIO) (*redis.Client, *sql.DB, error) {
	opt, err := redis.ParseURL(cfg.URL)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cfg.Node, err)
	}
	rdb := redis.NewClient(opt)
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, nil, fmt.Errorf("%s: redis: %w", cfg.Node, err)
	}
	db, err := openLedger(cfg.Ledger)
	if err != nil {
		rdb.Close()
		return nil, nil, err
	}
	w.say("ready", 0, 0)
	<-w.start
	return rdb, db, nil
}
