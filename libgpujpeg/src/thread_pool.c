/* A persistent pool of host threads (thread_pool.h). */
#include <pthread.h>
#include <stdlib.h>

#include "gpujpeg/common.h"
#include "log.h"
#include "thread_pool.h"

struct gj_thread_pool {
    pthread_mutex_t lock;
    pthread_cond_t work_ready;      /* a new job (generation) or quit */
    pthread_cond_t work_done;       /* the last item of a job finished and no worker is inside it */
    pthread_t *workers;
    int nb_workers;
    /* the current job */
    void (*work)(void *arg, int i);
    void *arg;
    int n, next, unfinished, busy;  /* busy: workers between taking up and leaving the job */
    unsigned generation;
    int quit;
};

/* Takes items of the current job until none is left; called and returns with the lock held. */
static void take_items(gj_thread_pool *pool)
{
    while (pool->next < pool->n) {
        int i = pool->next++;
        pthread_mutex_unlock(&pool->lock);
        pool->work(pool->arg, i);
        pthread_mutex_lock(&pool->lock);
        pool->unfinished--;
    }
}

static void *worker_main(void *opaque)
{
    gj_thread_pool *pool = opaque;
    unsigned seen = 0;

    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->generation == seen)
            pthread_cond_wait(&pool->work_ready, &pool->lock);
        if (pool->quit)
            break;
        seen = pool->generation;
        pool->busy++;
        take_items(pool);
        if (--pool->busy == 0 && pool->unfinished == 0)
            pthread_cond_signal(&pool->work_done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

int gj_thread_pool_create(gj_thread_pool **out, int threads)
{
    gj_thread_pool *pool;

    *out = NULL;
    if (!(pool = calloc(1, sizeof(*pool))))
        return GJ_ERROR_NOMEM;
    if (pthread_mutex_init(&pool->lock, NULL)) {
        free(pool);
        return gj_fail(GJ_ERROR_EXTERNAL, "thread pool: cannot create a lock");
    }
    if (pthread_cond_init(&pool->work_ready, NULL) || pthread_cond_init(&pool->work_done, NULL)) {
        pthread_mutex_destroy(&pool->lock);
        free(pool);
        return gj_fail(GJ_ERROR_EXTERNAL, "thread pool: cannot create a condition variable");
    }
    *out = pool;
    if (threads <= 1)
        return 0;
    if (!(pool->workers = calloc((size_t)threads - 1, sizeof(*pool->workers)))) {
        gj_thread_pool_free(out);
        return GJ_ERROR_NOMEM;
    }
    /* Fewer threads than asked where the system refuses more: the work still gets done. */
    while (pool->nb_workers < threads - 1 &&
           !pthread_create(&pool->workers[pool->nb_workers], NULL, worker_main, pool))
        pool->nb_workers++;
    return 0;
}

void gj_thread_pool_free(gj_thread_pool **ppool)
{
    gj_thread_pool *pool = ppool ? *ppool : NULL;

    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nb_workers; i++)
        pthread_join(pool->workers[i], NULL);
    free(pool->workers);
    pthread_cond_destroy(&pool->work_ready);
    pthread_cond_destroy(&pool->work_done);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
    *ppool = NULL;
}

int gj_thread_pool_threads(const gj_thread_pool *pool)
{
    return pool->nb_workers + 1;
}

void gj_thread_pool_run(gj_thread_pool *pool, void (*work)(void *arg, int i), void *arg, int n)
{
    if (n <= 0)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->work = work;
    pool->arg = arg;
    pool->n = n;
    pool->next = 0;
    pool->unfinished = n;
    if (pool->nb_workers && n > 1) {
        pool->generation++;
        pthread_cond_broadcast(&pool->work_ready);
    }
    take_items(pool);
    /* A worker still inside the job may only be leaving it, but it reads the job's
     * fields until it has: wait for it too, so the next job can reset them. */
    while (pool->unfinished || pool->busy)
        pthread_cond_wait(&pool->work_done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}
