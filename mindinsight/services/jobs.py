"""Lookups every per-job service starts with."""

from mindinsight.cache.data_manager import DataManager
from mindinsight.errors import TrainJobNotExistError
from mindinsight.ingest.containers import JobData


def cached_job_data(manager: DataManager, train_id: str) -> JobData:
    """The data of a job in the detail cache, or the documented 'train job not exist' error."""
    data = manager.job_data(train_id)
    if data is None:
        raise TrainJobNotExistError("Can not find the given train job in cache.")
    return data
