"""Running as one of several processes: shard leases, the standby, IDENTIFY across processes."""
