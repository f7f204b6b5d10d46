"""Lookups every per-job service starts with."""

from mindinsight.cache.provider import DataProvider, JobData


def cached_job_data(provider: DataProvider, train_id: str) -> JobData:
    """The data of a job in the detail cache, or the documented 'train job not exist' error."""
    return provider.cached_job(train_id)
